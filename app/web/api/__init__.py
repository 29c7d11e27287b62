"""The JSON API under /api/v1."""

from fastapi import APIRouter, Depends

from app.web.api import auth, games
from app.web.deps import csrf_protect

router = APIRouter(prefix="/api/v1", dependencies=[Depends(csrf_protect)])
router.include_router(auth.router)
router.include_router(games.router)
