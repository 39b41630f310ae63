from setuptools import Extension, setup

setup(
    name="cext-kernels",
    version="0.1.0",
    ext_modules=[Extension("fastfma", sources=["src/fastfma.c"])],
)
