"""The OpenCL.std accuracy sweep (issue 4, item 4): every math instruction of the extended
instruction set, run through spirvkit on many inputs per type and compared with a high-precision
reference, within the OpenCL SPIR-V environment spec's full-profile ULP bounds, plus the spec's
exact edge cases. ``python -m tests.accuracy.sweep --help`` runs it; ``test_accuracy.py`` runs a
seeded sample of the same sweep under pytest.
"""
