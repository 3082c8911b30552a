//! What a card and a whole play cost in blows (D7, D8, §6), and the mount-speed limits on
//! TAC cards (C8).

use super::*;

/// C8: the TAC cards a mounted figure may play at its mount's speed.
pub fn c8_allows(gait: Gait, card: TacCard) -> bool {
    use TacCard::*;
    match gait {
        Gait::Halt | Gait::Walk | Gait::Trot => matches!(card, StandGround | Close | Retreat),
        Gait::Canter => matches!(card, Fleche | Retreat),
        Gait::Gallop => matches!(card, Charge | RunAway),
    }
}

/// A TAC card's cost: nothing in the TAC phase; 2 blows in the card rounds if it moves the
/// figure, else 1 (D8).
pub fn tac_cost(t: TacCard, tac_phase: bool) -> u8 {
    match (tac_phase, t.moves()) {
        (true, _) => 0,
        (false, true) => 2,
        (false, false) => 1,
    }
}

/// The cost in blows of one card in its context (ASP free once a turn, CAST SPELL 1 then 2,
/// DRAW WEAPON's parts, agile beasts' free MOVE and DODGE).
pub fn cost(card: &Card, me: &Fighter, sit: &Situation) -> u8 {
    match card {
        Card::Tac(t) => tac_cost(*t, sit.tac_phase),
        Card::Melee(m) => melee_cost(m, me),
    }
}

fn melee_cost(m: &MeleeCard, me: &Fighter) -> u8 {
    let agile = me.profile.kind == Kind::AgileBeast;
    match m {
        MeleeCard::Fire { .. }
        | MeleeCard::Reload
        | MeleeCard::PrepareSpell
        | MeleeCard::PassiveShieldParry => 0,
        MeleeCard::DrawWeapon {
            weapon,
            shield,
            sheathe,
        } => {
            2 * (weapon.is_some() as u8 + *shield as u8)
                + if *sheathe { 2 } else { 0 }
                + if me.state.missile_used { 1 } else { 0 }
        }
        MeleeCard::CastSpell { .. } => {
            if me.state.spells_cast == 0 {
                1
            } else {
                2
            }
        }
        MeleeCard::ActiveShieldParry => {
            if me.state.asp_used {
                1
            } else {
                0
            }
        }
        MeleeCard::Move(_) if agile && me.state.free_moves < me.blows_max => 0,
        MeleeCard::Dodge(_) if agile => 0,
        MeleeCard::Horse(HorseCard::Trample { .. }) => 2,
        // C8: a steed at speed turns as it runs; the turn is part of its MOVE.
        MeleeCard::Horse(HorseCard::Turn { .. }) => 0,
        _ => 1,
    }
}

/// The cost of a whole play: every card, the second and later spells at 2, one free ASP, and
/// GREAT BLOW with FEROCITY on one target at 3 for the two (§6).
pub fn play_cost(fight: &Fight, i: usize, c: &Choice, tables: &Tables, tac_phase: bool) -> u8 {
    let me = &fight.fighters[i];
    let sit = Situation {
        fight,
        tables,
        tac_phase,
        tac: c.tac,
        with: &c.melee,
    };
    let mut total = c.tac.map_or(0, |t| cost(&Card::Tac(t), me, &sit));
    let mut spells = me.state.spells_cast;
    let mut asp_free = !me.state.asp_used;
    let mut free_moves = me.state.free_moves;
    for m in &c.melee {
        total += match m {
            MeleeCard::CastSpell { .. } => {
                spells += 1;
                if spells == 1 { 1 } else { 2 }
            }
            MeleeCard::ActiveShieldParry => {
                let free = asp_free;
                asp_free = false;
                if free { 0 } else { 1 }
            }
            MeleeCard::Move(_) if me.profile.kind == Kind::AgileBeast => {
                free_moves += 1;
                if free_moves <= me.blows_max { 0 } else { 1 }
            }
            m => melee_cost(m, me),
        };
    }
    for m in &c.melee {
        if let MeleeCard::GreatBlow { target } = m
            && c.melee
                .iter()
                .any(|x| matches!(x, MeleeCard::Ferocity { target: t } if t == target))
        {
            total += 1;
        }
    }
    total
}
