"""Not supported yet: pyopencl.scan."""

from ._unsupported import refuse

refuse("scan")
