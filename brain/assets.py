"""The one place that finds ``prompts/`` and ``templates/`` and renders them.

In a source checkout both folders sit at the top of the tree, next to ``brain/``; the
wheel ships them inside the package as ``brain/prompts`` and ``brain/templates``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from brain.errors import BrainError

if TYPE_CHECKING:
    import jinja2

AssetKind = Literal["prompts", "templates"]
_KINDS = ("prompts", "templates")


class AssetNotFound(BrainError):
    """A prompt or template the code asked for is not installed."""

    def __init__(self, message: str, *, path: Path, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.path = path


def _folder(kind: AssetKind) -> Path:
    if kind not in _KINDS:
        raise ValueError(f"unknown asset kind {kind!r}; expected one of {_KINDS}")
    package = Path(__file__).parent
    # The packaged folder first: in site-packages, the parent directory is shared with
    # every other installed distribution and may hold an unrelated "prompts/".
    installed = package / kind
    return installed if installed.is_dir() else package.parent / kind


def asset_path(kind: AssetKind, name: str) -> Path:
    """The path of one prompt or template, in a checkout or an installed wheel.

    Args:
        kind: ``prompts`` or ``templates``.
        name: a file name inside that folder, e.g. ``extract.md.j2``.

    Returns:
        The existing file's path.

    Raises:
        AssetNotFound: no such file (or the name tries to leave the folder).
    """
    folder = _folder(kind)
    path = folder / name
    if ".." in Path(name).parts or Path(name).is_absolute() or not path.is_file():
        raise AssetNotFound(
            f"{kind}/{name} not found in {folder}",
            path=path,
            hint="reinstall brain, or check the name",
        )
    return path


@lru_cache(maxsize=2)
def _environment(folder: Path) -> jinja2.Environment:
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(folder)),
        undefined=jinja2.StrictUndefined,  # a missing variable is a bug, not a blank
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,  # markdown and prompts, not HTML
    )


def render(kind: AssetKind, name: str, **variables: Any) -> str:
    """Render a Jinja2 prompt or template with strict undefined variables.

    Args:
        kind: ``prompts`` or ``templates``.
        name: the file name inside that folder.
        **variables: the template's variables; a missing one raises.

    Returns:
        The rendered text.
    """
    path = asset_path(kind, name)
    return _environment(path.parent).get_template(name).render(**variables)


@lru_cache(maxsize=1)
def html_environment() -> jinja2.Environment:
    """The environment of ``brain ui``'s pages (``templates/ui/``): every value is
    escaped, since what records and transcripts hold is untrusted text."""
    import jinja2

    folder = _folder("templates") / "ui"
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(folder)),
        undefined=jinja2.StrictUndefined,
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def ui_static(name: str) -> bytes:
    """One of ``brain ui``'s static files (``templates/ui/static/``), by name.

    Raises:
        AssetNotFound: no such file (or the name tries to leave the folder).
    """
    return asset_path("templates", f"ui/static/{name}").read_bytes()
