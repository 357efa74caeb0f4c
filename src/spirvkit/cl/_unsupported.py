"""The pyopencl modules that are libraries above the core API, not in spirvkit.cl yet."""


def refuse(module: str):
    raise ImportError(f"not supported yet: pyopencl.{module} (spirvkit.cl has the core API only)",
                      name=f"spirvkit.cl.{module}")
