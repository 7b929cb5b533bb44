from hanajit import hookimpl
