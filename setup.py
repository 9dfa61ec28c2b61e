from setuptools import setup

setup(cffi_modules=["csrc/build_ffi.py:ffibuilder"])
