"""seamcut: RAG chunking that cuts where the document changes, and proves it with your questions."""
from .api import chunk
from .readers import read
from .model import Chunk, Document, Element

__version__ = "0.1.0"
__all__ = ["chunk", "read", "Chunk", "Document", "Element", "__version__"]
