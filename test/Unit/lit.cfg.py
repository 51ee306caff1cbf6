# -*- Python -*-
# gtest unit tests, run by lit as part of check-ff.

import os

import lit.formats

config.name = "FLASHFUSER-Unit"
config.suffixes = []
config.test_source_root = os.path.join(config.ff_obj_root, "test", "Unit")
config.test_exec_root = config.test_source_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
