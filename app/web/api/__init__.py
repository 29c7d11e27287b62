"""The JSON API under /api/v1."""

from fastapi import APIRouter, Depends

from app.web.api import auth, games, messages, social
from app.web.api import clock as clock_api
from app.web.api import moderation as moderation_api
from app.web.deps import csrf_protect

router = APIRouter(prefix="/api/v1", dependencies=[Depends(csrf_protect)])
router.include_router(auth.router)
router.include_router(games.router)
router.include_router(messages.router)
router.include_router(clock_api.router)
router.include_router(social.router)
router.include_router(moderation_api.router)
