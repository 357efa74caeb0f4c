import sys
from pathlib import Path

# Let tests import the shared helpers (tests/peers.py, tests/corpus.py).
sys.path.insert(0, str(Path(__file__).parent))
