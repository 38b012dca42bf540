"""The message catalogs: extract every message of the package, then bring each language's
`.po` up to date (new messages added untranslated, gone ones dropped), with Babel.

    python scripts/translations.py            # extract and update
    python scripts/translations.py --check    # fail when a message has no translation

Messages are marked in the code with `_("...")`, `ngettext("...", "...", n)` and `N_("...")`
(neweden.i18n); their ids are the English text with named `{placeholders}`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "python" / "neweden"
LOCALE = PACKAGE / "i18n" / "locale"
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "Nn_": (1, 2)}


def extracted() -> Catalog:
    """Every message marked in the package, with where it is used."""
    found = Catalog(project="neweden", msgid_bugs_address="", charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
        str(PACKAGE),
        method_map=[("**.py", "python")],
        keywords=KEYWORDS,
        comment_tags=("TRANSLATORS:",),
    ):
        found.add(
            message,
            None,
            [(f"neweden/{filename}", lineno)],
            auto_comments=comments,
            context=context,
        )
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="fail on a message without translation"
    )
    args = parser.parse_args()
    template = extracted()
    with (LOCALE / "neweden.pot").open("wb") as handle:
        write_po(handle, template, width=100, omit_header=False)
    missing = 0
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/neweden.po")):
        with po.open("rb") as handle:
            catalog = read_po(handle, locale=po.parent.parent.name)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        if not args.check:
            with po.open("wb") as handle:
                write_po(handle, catalog, width=100, ignore_obsolete=True)
        for message in catalog:
            if message.id and (
                not message.string
                or message.fuzzy
                or (isinstance(message.string, tuple) and not all(message.string))
            ):
                missing += 1
                print(f"{po.relative_to(ROOT)}: untranslated: {message.id!r}", file=sys.stderr)
    print(f"{len(template)} messages; {missing} without translation")
    return 1 if args.check and missing else 0


if __name__ == "__main__":
    sys.exit(main())
