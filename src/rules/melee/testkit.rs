//! Test helpers: figures from the built-in rulesets' templates on an open field, plays and
//! scripted rounds. Compiled for the tests and the benchmark only.

use super::cards::{Choice, MeleeCard, TacCard};
use super::fight::{CombatState, Fight, Fighter};
use super::resolve::{Guess, resolve};
use super::tables::tables;
use super::{Event, ScriptedDice};
use crate::rules::board::{Board, Terrain};
use crate::rules::gait::Gait;
use crate::rules::grid::{Cell, Dir, GridKind, StandShape};
use crate::rules::mp::{Frac, Mp};
use crate::rules::ruleset::{RatePer, Ruleset};

/// An open `w`×`h` board of `grid` with one impassable terrain (id 1) for walls.
pub fn board(grid: GridKind, w: i32, h: i32) -> Board {
    let open = Terrain {
        name: "open".into(),
        cost: Some(Mp::ONE),
        mounted_cost: None,
        no_gallop: false,
        cover: false,
        blocks_sight: false,
        obstacle: None,
    };
    let wall = Terrain {
        name: "wall".into(),
        cost: None,
        ..open.clone()
    };
    Board::new(grid, w, h, vec![open, wall])
}

/// The figures of template `key` of `rules` (a rider and its mount for mounted templates).
pub fn figures(
    rules: &Ruleset,
    id: &str,
    key: &str,
    side: u8,
    at: Cell,
    facing: Dir,
) -> Vec<Fighter> {
    let t = tables();
    let tpl = rules
        .templates
        .get(key)
        .unwrap_or_else(|| panic!("template {key}"));
    let per = |rate: Mp| match rules.rate_per {
        RatePer::Turn => rate.scale(Frac::new(1, 2)),
        RatePer::HalfMove => rate,
    };
    let mut v = vec![Fighter {
        id: id.into(),
        side,
        cell: at,
        facing,
        shape: StandShape::Square,
        stand_size: tpl.stand_size,
        weight: tpl.weight,
        dex: tpl.dexterity,
        armour: tpl.armour,
        enc: tpl.encumbrance,
        weapon: tpl.weapon.clone(),
        shield: tpl.shield,
        profile: t.fighter(key),
        blows: tpl.blows,
        blows_max: tpl.blows,
        body: tpl.body as i32,
        body_max: tpl.body as i32,
        mount: None,
        rider: None,
        horse_class: tpl.horse_class.clone(),
        gait: Gait::Walk,
        move_basis: per(tpl.rate),
        conditions: tpl.conditions.clone(),
        troop: tpl.troop,
        state: CombatState {
            shield_down: t.fighter(key).shield_slung,
            ..CombatState::default()
        },
    }];
    if tpl.horse_class.is_some() {
        v[0].shape = StandShape::Long;
    }
    if let Some(m) = &tpl.mount {
        let walk = rules
            .horse_classes
            .get(&m.class)
            .map_or(Mp::ZERO, |h| h.walk);
        v[0].shape = StandShape::Long;
        v[0].stand_size = 20;
        v.push(Fighter {
            id: format!("{id}.mount"),
            side,
            cell: at,
            facing,
            shape: StandShape::Long,
            stand_size: 20,
            weight: m.weight,
            dex: 10,
            armour: 2,
            enc: crate::rules::ruleset::Encumbrance::None,
            weapon: "hooves".into(),
            shield: false,
            profile: t.mount(&m.class),
            blows: m.blows,
            blows_max: m.blows,
            body: m.body as i32,
            body_max: m.body as i32,
            mount: None,
            rider: None,
            horse_class: Some(m.class.clone()),
            gait: Gait::Walk,
            move_basis: per(walk),
            conditions: Vec::new(),
            troop: crate::rules::ruleset::TroopType::Horse,
            state: CombatState::default(),
        });
    }
    v
}

/// A fight on `board` of the given figures (lists from [`figures`]); side 0 attacks.
pub fn fight(mut board: Board, groups: Vec<Vec<Fighter>>, conditions: &[&str]) -> Fight {
    let mut fighters = Vec::new();
    for g in groups {
        let base = fighters.len();
        let n = g.len();
        for (k, mut f) in g.into_iter().enumerate() {
            if n == 2 {
                if k == 0 {
                    f.mount = Some(base + 1);
                } else {
                    f.rider = Some(base);
                }
            }
            fighters.push(f);
        }
    }
    for f in &fighters {
        let k = board.index(f.cell);
        board.occupant[k] = f.side + 1;
    }
    Fight {
        board,
        fighters,
        attacker: 0,
        round: 1,
        conditions: conditions.iter().map(|s| s.to_string()).collect(),
        first_half: None,
        melee_k2: false,
        prepare: Default::default(),
        near: Default::default(),
    }
}

/// The `destrier` ruleset.
pub fn destrier() -> Ruleset {
    crate::level::builtin_ruleset("destrier").expect("built in")
}

/// A play of MELEE cards only.
pub fn melee(cards: Vec<MeleeCard>) -> Choice {
    Choice {
        melee: cards,
        ..Choice::default()
    }
}

/// A play with a TAC card.
pub fn tac(card: TacCard, target: Option<&str>, cards: Vec<MeleeCard>) -> Choice {
    Choice {
        tac: Some(card),
        tac_target: target.map(str::to_string),
        melee: cards,
        forfeit: false,
    }
}

/// DELIVER BLOW at `t`.
pub fn blow(t: &str) -> MeleeCard {
    MeleeCard::DeliverBlow { target: t.into() }
}

/// Plays one round with scripted dice; panics if the script runs short. Returns the events'
/// text joined by newlines, and the dice for checking leftovers.
pub fn play(
    fight: &mut Fight,
    plays: &[(&str, Choice)],
    guesses: &[(&str, &str, super::cards::DodgeDir)],
    d100: &[u32],
    d6: &[u32],
) -> (String, Vec<Event>, ScriptedDice) {
    let mut choices = vec![None; fight.fighters.len()];
    for (id, c) in plays {
        let i = fight.index_of(id).unwrap_or_else(|| panic!("no {id}"));
        choices[i] = Some(c.clone());
    }
    let gs: Vec<Guess> = guesses
        .iter()
        .map(|(g, d, dir)| Guess {
            guesser: fight.index_of(g).expect("guesser"),
            dodger: fight.index_of(d).expect("dodger"),
            dir: *dir,
        })
        .collect();
    let mut dice = ScriptedDice::new(d100, d6);
    let ev = resolve(fight, tables(), &choices, &gs, &mut dice);
    let text = ev
        .iter()
        .map(|e| e.text.clone())
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(dice.overrun, 0, "the script ran short:\n{text}");
    (text, ev, dice)
}

/// Index of a figure.
pub fn ix(f: &Fight, id: &str) -> usize {
    f.index_of(id).unwrap_or_else(|| panic!("no {id}"))
}
