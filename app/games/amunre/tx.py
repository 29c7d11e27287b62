"""One order's work in progress (`kit.tx`) and the moves of cards, gold and pieces it is made of."""

from __future__ import annotations

from typing import Any

from app.games.amunre.board import BOARD
from app.games.amunre.cards import Gold, exact, minus, payment, plus, value
from app.games.amunre.model import Player, Province, State
from app.games.kit.model import evolve, replaced
from app.games.kit.tx import SeatedTx


class Tx(SeatedTx[State, Player]):
    def province(self, index: int) -> Province:
        return self.state.provinces[index]

    def update_province(self, index: int, **changes: Any) -> None:
        provinces = self.state.provinces
        self.set(provinces=replaced(provinces, index, evolve(provinces[index], **changes)))

    # power cards

    def draw_power(self) -> str | None:
        """The top card of the deck, the discard pile reshuffled into it when it runs out."""
        if not self.state.deck:
            if not self.state.discard:
                return None
            self.set(deck=self.shuffle(self.state.discard), discard=())
            self.emit("deck_reshuffled", cards=len(self.state.deck))
        card, *rest = self.state.deck
        self.set(deck=tuple(rest))
        return card

    def give_powers(self, seat: int, cards: tuple[str, ...], why: str) -> None:
        if not cards:
            return
        self.update_player(seat, powers=tuple(sorted((*self.player(seat).powers, *cards))))
        self.emit("cards_taken", seat=seat, count=len(cards), why=why)
        self.emit("cards_seen", to=(seat,), seat=seat, cards=list(cards))

    def play_power(self, seat: int, card: str) -> None:
        self._discard(seat, card)
        self.emit("card_played", seat=seat, card=card)

    def sell(self, seat: int, card: str) -> None:
        """The card goes face up to the discard pile for 1 gold, which everyone sees; the gold cards
        received (change) only its seller."""
        self._discard(seat, card)
        self.emit("card_sold", seat=seat, card=card)
        self.receive(seat, 1, "sold")

    def _discard(self, seat: int, card: str) -> None:
        """The card leaves the hand for the face-up discard pile."""
        powers = list(self.player(seat).powers)
        powers.remove(card)
        self.update_player(seat, powers=tuple(powers))
        self.set(discard=(*self.state.discard, card))

    # gold

    def pay(self, seat: int, amount: int, why: str) -> None:
        """Pay the bank `amount` gold from the hand (the caller checked it is enough); the bank gives
        change."""
        if amount <= 0:
            return
        hand = self.player(seat).gold
        given = payment(hand, amount)
        bank = plus(self.state.bank, given)
        change = exact(value(given) - amount, bank)
        if change is None:
            self._exchange(seat, value(hand) - amount)
        else:
            self.update_player(seat, gold=plus(minus(hand, given), change))
            self.set(bank=minus(bank, change))
        self.emit("paid", to=(seat,), seat=seat, amount=amount, why=why)

    def receive(self, seat: int, amount: int, why: str) -> None:
        """Gold from the bank; a bank worth less than `amount` gives all it has."""
        amount = min(amount, value(self.state.bank))
        cards = exact(amount, self.state.bank)
        if cards is None:
            self._exchange(seat, value(self.player(seat).gold) + amount)
        else:
            self.move_gold_to(seat, cards)
            self.set(bank=minus(self.state.bank, cards))
        self.emit("gold_received", to=(seat,), seat=seat, amount=amount, why=why)

    def _exchange(self, seat: int, target: int) -> None:
        """When the bank cannot give the cards asked for, the hand is changed with it for cards worth
        `target`; if even all their cards together cannot make that sum (every small card in other
        hands), for the nearest sum above it: the bank rounds in the player's favour."""
        pool = plus(self.player(seat).gold, self.state.bank)
        for extra in range(value(pool) - target + 1):
            hand = exact(target + extra, pool)
            if hand is not None:
                break
        else:  # pragma: no cover - the pool is worth at least the target, so some sum is reachable
            raise AssertionError("no change")
        self.update_player(seat, gold=hand)
        self.set(bank=minus(pool, hand))
        if extra:
            self.emit("bank_rounded", to=(seat,), seat=seat, extra=extra)

    def move_gold_to(self, seat: int, cards: Gold) -> None:
        self.update_player(seat, gold=plus(self.player(seat).gold, cards))

    # pieces

    def add_blocks(self, index: int, count: int) -> None:
        """Blocks into a province from the supply; every 3 become a pyramid, 2 pyramids a double."""
        count = min(count, self.state.blocks)
        self.set(blocks=self.state.blocks - count)
        self.update_province(index, blocks=self.province(index).blocks + count)
        while self.province(index).blocks >= 3 and self.state.pyramids:
            self.build(index, 3)

    def build(self, index: int, blocks: int) -> None:
        """`blocks` blocks of the province back to the supply for a pyramid."""
        province = self.province(index)
        self.update_province(index, blocks=province.blocks - blocks, pyramids=province.pyramids + 1)
        self.set(blocks=self.state.blocks + blocks, pyramids=self.state.pyramids - 1)
        self.emit("pyramid_built", province=BOARD.provinces[index].name, seat=province.owner)
        province = self.province(index)
        if province.pyramids >= 2 and self.state.doubles:
            self.update_province(index, pyramids=province.pyramids - 2, doubles=province.doubles + 1)
            self.set(pyramids=self.state.pyramids + 2, doubles=self.state.doubles - 1)

    def add_farmer(self, index: int, flat: bool = False) -> None:
        province = self.province(index)
        if flat:
            self.update_province(index, flat_farmers=province.flat_farmers + 1)
        else:
            self.update_province(index, farmers=province.farmers + 1)
        self.set(farmers=self.state.farmers - 1)
        self.emit("farmer_placed", province=BOARD.provinces[index].name, seat=province.owner, flat=flat)


def farmers_in(state: State, index: int) -> int:
    province = state.provinces[index]
    return BOARD.provinces[index].printed_farmers + province.farmers + province.flat_farmers


def free_farm_spaces(state: State, index: int) -> int:
    return BOARD.provinces[index].farm_spaces - state.provinces[index].farmers


def clockwise(state: State, seats: set[int] | None = None) -> tuple[int, ...]:
    """Seats in turn order from the Pharaoh (only those of `seats`, if given)."""
    count = len(state.players)
    order = tuple((state.pharaoh + step) % count for step in range(count))
    return order if seats is None else tuple(seat for seat in order if seat in seats)
