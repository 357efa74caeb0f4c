import pytest

import spirvkit.cl as cl


@pytest.fixture(scope="module")
def ctx():
    return cl.create_some_context(interactive=False)


@pytest.fixture(scope="module")
def queue(ctx):
    return cl.CommandQueue(ctx)
