# The forty-second session's calls source the shared helpers.
. scripts/bench/session-lib.sh
