"""ClusterSize of the clustered reductions and of OpGroupNonUniformRotateKHR: a constant
instruction, for a rotation also a power of 2 (SPIR-V 3.32.24, SPV_KHR_subgroup_rotate), checked
against spirv-val on mutants of a module spirvkit cc writes."""
from __future__ import annotations

import re
import subprocess

import pytest

import spirvkit
from peers import spirv_tool

SOURCE = """kernel void k(global uint *o, uint d) { size_t i = get_global_id(0);
  o[i] = sub_group_clustered_rotate(o[i], d, 4) + sub_group_clustered_reduce_add(o[i], 4); }"""


@pytest.fixture(scope="module")
def text():
    return spirvkit.disassemble(spirvkit.compile_cl(SOURCE, "-cl-std=CL2.0"), raw_id=False)


@pytest.mark.parametrize("old, new, message", [
    (None, None, None),
    ("%d %uint_4\n", "%d %d\n", "ClusterSize must come from a constant instruction."),
    ("ClusteredReduce (%\\d+) %uint_4", r"ClusteredReduce \1 %d", "ClusterSize must be a constant instruction"),
    ("%uint_4 = OpConstant %uint 4", "%uint_4 = OpConstant %uint 6",
     "Behavior is undefined unless ClusterSize is at least 1 and a power of 2."),
    ("%d %uint_4\n", "%d\n", None),   # a rotation over the whole sub-group
])
def test_cluster_size_verdicts_match_spirv_val(text, old, new, message, tmp_path):
    if old is not None:   # (a regular expression: ids are numbered by the compiler)
        assert re.search(old, text)
        text = re.sub(old, new, text, count=1)
    binary = spirvkit.assemble(text, target_env="spv1.3")
    path = tmp_path / "m.spv"
    path.write_bytes(binary)
    theirs = subprocess.run([spirv_tool("spirv-val"), "--target-env", "spv1.3", str(path)],
                            capture_output=True, text=True)
    ours = spirvkit.validate(binary, target_env="spv1.3")
    if message is None:
        assert theirs.returncode == 0 and ours == [], theirs.stderr + str(ours)
    else:
        assert message in theirs.stdout + theirs.stderr
        assert ours and message in str(ours[0])
