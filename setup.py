"""Package layout only (everything else is in pyproject.toml).

The grammar (``grammar/*.lark``) and the bundled data (``data/``) stay top-level folders of the
checkout, their one source of truth; setuptools maps them into the wheel and the sdist as the
resource packages ``pipeline.grammar`` and ``pipeline.data``, which :mod:`pipeline.paths`
finds with ``importlib.resources`` (installed, editable or not).
"""

from setuptools import find_packages, setup

RESOURCE_PACKAGES = {"pipeline.grammar": "grammar", "pipeline.data": "data"}

setup(
    packages=find_packages(include=["pipeline", "pipeline.*"]) + list(RESOURCE_PACKAGES),
    package_dir=RESOURCE_PACKAGES,
    package_data={"pipeline.grammar": ["*.lark"], "pipeline.data": ["*"]},
)
