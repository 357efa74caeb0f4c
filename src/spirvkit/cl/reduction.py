"""Not supported yet: pyopencl.reduction."""

from ._unsupported import refuse

refuse("reduction")
