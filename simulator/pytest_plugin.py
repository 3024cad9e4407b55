"""pytest plugin: collect hooksim scenario files as test items."""
