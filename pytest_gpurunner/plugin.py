"""pytest hooks of the gpurunner plug-in (options, ini keys, markers, collection)."""
