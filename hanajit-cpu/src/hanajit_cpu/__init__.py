"""hanajit-cpu: the host CPU target plugin (entry point ``cpu``)."""
