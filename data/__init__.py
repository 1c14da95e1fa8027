"""The bundled data (snapshot, Comprehensive Rules, rule features), installed as the resource
package ``pipeline.data`` (see setup.py); read through :data:`pipeline.paths.DATA_DIR`."""
