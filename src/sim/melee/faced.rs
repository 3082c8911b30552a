//! A round's cards faced but for the DODGEs (D7): "the DODGE cards stay face down until the
//! guesses are in". A seat that follows the game from elsewhere (a client's replica, the game a
//! computer side plays from) must reach the guesses too, so it is given the other side's
//! choices of the round then, each DODGE's direction masked; the whole choice comes once the
//! round is faced, and replaces the masked one in the seat's game ([`unmask`]).

use super::*;
use crate::sim::order::Order;

/// `order` as a seat of another side may have it while its round waits for the dodge
/// guesses: a card play with each DODGE turned to the first way (left, right, back) the figure
/// may dodge now. Which ways are open is public (the board), so the mask tells nothing of the
/// way chosen; every way the figure may take gives the same mask. Any other order is given as
/// it is (a pass has no DODGE).
pub(crate) fn faced_but_dodges(world: &World, order: &Order) -> Order {
    let Order::PlayCards {
        unit,
        tac,
        tac_target,
        melee,
    } = order
    else {
        return order.clone();
    };
    if !crate::rules::melee::cards::has_dodge(melee) {
        return order.clone();
    }
    let fight = world
        .get_resource::<MeleeState>()
        .and_then(|s| s.fight.as_ref());
    let masked = |d: DodgeDir| -> Vec<MeleeCard> {
        melee
            .iter()
            .map(|m| match m {
                MeleeCard::Dodge(_) => MeleeCard::Dodge(d),
                m => m.clone(),
            })
            .collect()
    };
    let open = |d: &DodgeDir| {
        fight.is_some_and(|f| {
            f.index_of(unit).is_some_and(|i| {
                let c = Choice {
                    tac: *tac,
                    tac_target: tac_target.clone(),
                    melee: masked(*d),
                    forfeit: false,
                };
                check_play(f, i, &c, tables(), f.round == 0).is_ok()
            })
        })
    };
    // The chosen way is open, so some way is: the first of them, whichever was chosen.
    let way = DodgeDir::ALL
        .into_iter()
        .find(open)
        .unwrap_or(DodgeDir::ALL[0]);
    Order::PlayCards {
        unit: unit.clone(),
        tac: *tac,
        tac_target: tac_target.clone(),
        melee: masked(way),
    }
}

/// Puts `now`, the whole of a card play this game was given masked as `was`, in its place:
/// true when the round still waits for its guesses with `was` chosen, false when this game
/// cannot (it must be played again from the record).
pub(crate) fn unmask(world: &mut World, was: &Order, now: &Order) -> bool {
    let (
        Order::PlayCards {
            unit,
            tac,
            tac_target,
            melee: masked,
        },
        Order::PlayCards {
            unit: unit_now,
            tac: tac_now,
            tac_target: target_now,
            melee: whole,
        },
    ) = (was, now)
    else {
        return false;
    };
    if unit != unit_now || tac != tac_now || tac_target != target_now {
        return false;
    }
    let Some(mut s) = world.get_resource_mut::<MeleeState>() else {
        return false;
    };
    if s.stage != Stage::Guessing {
        return false;
    }
    let Some(i) = s.fight.as_ref().and_then(|f| f.index_of(unit)) else {
        return false;
    };
    match s.choices.get_mut(i) {
        Some(Some(c)) if c.melee == *masked => {
            c.melee = whole.clone();
            true
        }
        _ => false,
    }
}

/// `order` with its DODGEs masked ([`faced_but_dodges`]) and the enemies that will have to
/// guess them ([`dodge_guessers`]), for a card play with a DODGE someone must guess.
pub(crate) fn faced_play(world: &World, order: &Order) -> Option<(Order, Vec<String>)> {
    let Order::PlayCards { unit, melee, .. } = order else {
        return None;
    };
    if !crate::rules::melee::cards::has_dodge(melee) {
        return None;
    }
    let guessers = dodge_guessers(world, unit);
    (!guessers.is_empty()).then(|| (faced_but_dodges(world, order), guessers))
}

/// The enemies that will have to guess which way `unit` dodges, should it play a DODGE in
/// the round now being chosen (§6, D7): those the rounds would ask
/// (`MeleeState::guesses_needed`). Public: it reads the board and who passes, not anybody's
/// cards.
pub(crate) fn dodge_guessers(world: &World, unit: &str) -> Vec<String> {
    let Some(s) = world.get_resource::<MeleeState>() else {
        return Vec::new();
    };
    let Some(fight) = s.fight.as_ref() else {
        return Vec::new();
    };
    let Some(d) = fight.index_of(unit) else {
        return Vec::new();
    };
    let mut plays: Vec<Option<Choice>> = vec![None; fight.fighters.len()];
    plays[d] = Some(Choice {
        tac: None,
        tac_target: None,
        melee: vec![MeleeCard::Dodge(DodgeDir::ALL[0])],
        forfeit: false,
    });
    s.guesses_needed(&plays)
        .into_iter()
        .map(|(g, _)| fight.fighters[g].id.clone())
        .collect()
}
