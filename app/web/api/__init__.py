"""The JSON API under /api/v1."""

from fastapi import APIRouter, Depends

from app.web.api import accounts, messages, play, privacy, social
from app.web.api import deadlines as deadlines_api
from app.web.api import moderation as moderation_api
from app.web.deps import csrf_protect

router = APIRouter(prefix="/api/v1", dependencies=[Depends(csrf_protect)])
router.include_router(accounts.router)
router.include_router(privacy.router)
router.include_router(play.router)
router.include_router(messages.router)
router.include_router(deadlines_api.router)
router.include_router(social.router)
router.include_router(moderation_api.router)
