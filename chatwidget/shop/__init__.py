"""What the shop knows and can do: `knowledge/` (the catalogue and pages, imported, chunked
and searched) and `actions/` (calls to the shop's own API that the model may make). Models
in `models/`, admin in `admin/`, the import task in `tasks.py`."""
