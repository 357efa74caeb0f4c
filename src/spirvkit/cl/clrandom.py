"""Not supported yet: pyopencl.clrandom."""

from ._unsupported import refuse

refuse("clrandom")
