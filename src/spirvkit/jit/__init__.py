"""SPIR-V -> LLVM IR -> native code (llvmlite)."""
