import sys

from neweden.cli.main import main

sys.exit(main())
