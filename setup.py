from setuptools import setup

# cffi builds the extension against the limited API (_native.abi3.so); tagging the wheel
# cp39-abi3 lets one wheel install on every CPython from 3.9 on.
setup(cffi_modules=["csrc/build_ffi.py:ffibuilder"],
      options={"bdist_wheel": {"py_limited_api": "cp39"}})
