"""Not supported yet: pyopencl.elementwise."""

from ._unsupported import refuse

refuse("elementwise")
