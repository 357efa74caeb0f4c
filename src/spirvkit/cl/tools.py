"""Not supported yet: pyopencl.tools."""

from ._unsupported import refuse

refuse("tools")
