//! K2 in the card rounds, the D6 attacker of engagements begun in the first half-move, the
//! automatic DODGE of dogs, wolves and cats, PREPARE SPELL's optional limits and the
//! FEROCITY aftermath (a friend calming a berserk, a berserk carrying nothing) — §6, D6, K2.

use super::attack::{Blow, Context, Guard, Strike, breakdown, odds, tmm_attacker};
use super::berserk;
use super::cards::*;
use super::fight::{Fight, FirstHalf, Posture};
use super::resolve::resolve;
use super::tables::{Kind, seed, tables};
use super::testkit::*;
use super::{Event, ScriptedDice, flow};
use crate::rules::grid::{Cell, Dir, GridKind};
use crate::rules::ruleset::{Activity, PrepareSpellLimits};

/// The chance of a plain weapon blow by `a` at `d` against guard `g`, and its parts' names.
fn blow_odds(f: &Fight, a: &str, d: &str, g: Guard) -> (i32, Vec<String>) {
    let o = breakdown(
        f,
        tables(),
        ix(f, a),
        ix(f, d),
        &Strike::plain(Blow::Weapon),
        &g,
        &Context::default(),
    );
    (o.chance, o.parts.iter().map(|p| p.0.to_string()).collect())
}

/// One round with the given plays and dice, leftovers and overruns allowed.
fn round(f: &mut Fight, plays: &[(&str, Choice)], d100: &[u32], d6: &[u32]) -> Vec<Event> {
    let mut choices = vec![None; f.fighters.len()];
    for (id, c) in plays {
        choices[ix(f, id)] = Some(c.clone());
    }
    let mut dice = ScriptedDice::new(d100, d6);
    resolve(f, tables(), &choices, &[], &mut dice)
}

fn joined(ev: &[Event]) -> String {
    ev.iter()
        .map(|e| e.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A mounted figure of `key` at (5,5) heading east, and a footman beside its horse at (5,6).
fn rider_and_footman(key: &str) -> Fight {
    let r = destrier();
    let mut f = fight(
        board(GridKind::Square, 12, 12),
        vec![
            figures(&r, "rider", key, 0, Cell::new(5, 5), Dir(2)),
            figures(&r, "b", "footman", 1, Cell::new(5, 6), Dir(0)),
        ],
        &[],
    );
    // No shield: no PASSIVE SHIELD PARRY between the two numbers compared.
    let b = ix(&f, "b");
    f.fighters[b].shield = false;
    f
}

#[test]
fn k2_mounted_infantry_minus_one_on_card_round_blows_and_in_the_odds() {
    let mut f = rider_and_footman("mounted_infantry_on_rouncy");
    let (before, parts) = blow_odds(&f, "rider", "b", Guard::default());
    assert!(!parts.iter().any(|p| p.contains("K2")), "{parts:?}");
    // A melee phase begins: K2 counts on every blow of the cards.
    flow::begin_phase(&mut f);
    assert!(f.melee_k2);
    let (after, parts) = blow_odds(&f, "rider", "b", Guard::default());
    assert_eq!(after, before - 10, "one point = 10% (data/cavalry.ron)");
    assert!(
        parts.iter().any(|p| p == "mounted infantry (K2)"),
        "{parts:?}"
    );
    // The desktop game's odds preview is the same function: it shows the −10 too.
    let card = MeleeCard::DeliverBlow { target: "b".into() };
    let o = odds(&f, tables(), ix(&f, "rider"), ix(&f, "b"), &card, &[]).expect("odds");
    assert_eq!(o.chance, after);
    // The resolver rolls against the same number: a roll of `before` now misses.
    f.round = 1;
    let text = joined(&round(
        &mut f,
        &[("rider", melee(vec![card]))],
        &[before as u32],
        &[],
    ));
    assert!(
        text.contains(&format!("needs {after} or less"))
            && text.contains("mounted infantry (K2) -10")
            && text.contains("a miss"),
        "{text}"
    );
    // On foot, a mounted infantryman fights as anyone (K2: "while mounted").
    let rider = ix(&f, "rider");
    f.fighters[rider].mount = None;
    let (_, parts) = blow_odds(&f, "rider", "b", Guard::default());
    assert!(!parts.iter().any(|p| p.contains("K2")), "{parts:?}");
}

#[test]
fn k2_shock_cavalry_plus_one_only_with_its_charge_card() {
    let mut f = rider_and_footman("knight_on_destrier");
    flow::begin_phase(&mut f);
    let rider = ix(&f, "rider");
    let (plain, parts) = blow_odds(&f, "rider", "b", Guard::default());
    assert!(!parts.iter().any(|p| p.contains("K2")), "{parts:?}");
    // Its TAC card of this melee phase is CHARGE: charging shock cavalry +10.
    f.fighters[rider].state.tac = Some(TacCard::Charge);
    let o = breakdown(
        &f,
        tables(),
        rider,
        ix(&f, "b"),
        &Strike::plain(Blow::Weapon),
        &Guard::default(),
        &Context::default(),
    );
    let k2: Vec<i32> = o
        .parts
        .iter()
        .filter(|p| p.0.contains("K2"))
        .map(|p| p.1)
        .collect();
    assert_eq!(k2, [10], "{:?}", o.parts);
    // With the same CHARGE card (its TMM and C7 readings alike), K2 alone is the +10.
    let mut g = f.clone();
    g.melee_k2 = false;
    assert_eq!(
        o.chance,
        blow_odds(&g, "rider", "b", Guard::default()).0 + 10
    );
    assert_ne!(o.chance, plain, "the CHARGE card changes the blow");
    // Outside a melee phase (a movement charge adds its own K2): nothing here.
    f.melee_k2 = false;
    let (_, parts) = blow_odds(&f, "rider", "b", Guard::default());
    assert!(!parts.iter().any(|p| p.contains("K2")), "{parts:?}");
}

/// Four footmen: a (Red) against b (Blue) and c (Red) against d (Blue).
fn two_pairs() -> Fight {
    let r = destrier();
    fight(
        board(GridKind::Square, 12, 12),
        vec![
            figures(&r, "a", "footman", 0, Cell::new(2, 2), Dir(2)),
            figures(&r, "b", "footman", 1, Cell::new(3, 2), Dir(6)),
            figures(&r, "c", "footman", 0, Cell::new(2, 8), Dir(2)),
            figures(&r, "d", "footman", 1, Cell::new(3, 8), Dir(6)),
        ],
        &[],
    )
}

#[test]
fn d6_a_melee_joined_in_the_first_half_move_keeps_the_first_initiatives_attacker() {
    let mut f = two_pairs();
    // Blue won the second initiative; Red the first, when a and b were already engaged.
    f.attacker = 1;
    let (a, b, c, d) = (ix(&f, "a"), ix(&f, "b"), ix(&f, "c"), ix(&f, "d"));
    assert!(!tmm_attacker(&f, a, b) && tmm_attacker(&f, b, a));
    f.first_half = Some(FirstHalf::new(0, vec![("b".into(), "a".into())]));
    assert!(tmm_attacker(&f, a, b) && !tmm_attacker(&f, b, a));
    // c and d met in the second half-move: the last initiative's winner attacks.
    assert!(!tmm_attacker(&f, c, d) && tmm_attacker(&f, d, c));
    // A figure joining later in the card rounds is still the attacker (D8).
    f.fighters[b].state.joined = 2;
    assert!(tmm_attacker(&f, b, a));
    // The TMM row the blows read follows: a's CLOSE against b's STAND GROUND.
    f.fighters[b].state.joined = 0;
    f.fighters[a].state.tac = Some(TacCard::Close);
    f.fighters[b].state.tac = Some(TacCard::StandGround);
    let tmm = tables().tmm(Some(TacCard::Close), Some(TacCard::StandGround));
    let (_, parts) = blow_odds(&f, "a", "b", Guard::default());
    assert_eq!(parts.iter().any(|p| p == "TMM"), tmm.0 != 0, "{parts:?}");
}

/// A footman at (5,5) facing east against a wolf (an agile beast) at (6,5) facing west.
fn wolf_fight() -> Fight {
    let mut f = duel_ab();
    let b = ix(&f, "b");
    f.fighters[b].profile.kind = Kind::AgileBeast;
    f.fighters[b].profile.dodge = 30;
    f.fighters[b].enc = crate::rules::ruleset::Encumbrance::None;
    f.fighters[b].armour = 2;
    f.fighters[b].shield = false;
    f
}

fn duel_ab() -> Fight {
    let r = destrier();
    fight(
        board(GridKind::Square, 12, 12),
        vec![
            figures(&r, "a", "footman", 0, Cell::new(5, 5), Dir(2)),
            figures(&r, "b", "footman", 1, Cell::new(6, 5), Dir(6)),
        ],
        &[],
    )
}

#[test]
fn dogs_wolves_and_cats_dodge_automatically_when_not_charging() {
    let mut f = wolf_fight();
    let (a, b) = (ix(&f, "a"), ix(&f, "b"));
    let (bare, _) = blow_odds(&f, "a", "b", Guard::default());
    let auto = Guard::default().with_auto_dodge(&f, b);
    assert!(auto.auto_dodge);
    let (dodged, parts) = blow_odds(&f, "a", "b", auto);
    assert_eq!(dodged, bare - 30);
    assert!(
        parts.iter().any(|p| p == "automatic DODGE (§6)"),
        "{parts:?}"
    );
    // The odds preview shows it with no card assumed.
    let card = MeleeCard::DeliverBlow { target: "b".into() };
    let o = odds(&f, tables(), a, b, &card, &[]).expect("odds");
    assert_eq!(o.chance, dodged);
    // In a round the wolf plays nothing and spends nothing, and the blow needs the lower
    // number: a roll of `bare` misses.
    f.round = 1;
    let blows = f.fighters[b].blows;
    let text = joined(&round(
        &mut f,
        &[("a", melee(vec![card.clone()]))],
        &[bare as u32],
        &[],
    ));
    assert!(
        text.contains(&format!("needs {dodged} or less")) && text.contains("a miss"),
        "{text}"
    );
    assert_eq!(f.fighters[b].blows, blows);
    assert_eq!(
        f.fighters[b].cell,
        Cell::new(6, 5),
        "no dodge move without the card"
    );
    // Charging: no automatic dodge.
    f.fighters[b].state.tac = Some(TacCard::Charge);
    assert!(!Guard::default().with_auto_dodge(&f, b).auto_dodge);
    f.fighters[b].state.tac = None;
    // A man is no agile beast.
    let mut g = f.clone();
    g.fighters[b].profile.kind = Kind::Humanoid;
    assert!(!Guard::default().with_auto_dodge(&g, b).auto_dodge);
    // No room on any dodge side (walls left, right and behind): no dodge.
    let mut h = f.clone();
    for c in [Cell::new(6, 4), Cell::new(6, 6), Cell::new(7, 5)] {
        let k = h.board.index(c);
        h.board.terrain[k] = 1;
    }
    assert!(!Guard::default().with_auto_dodge(&h, b).auto_dodge);
    // On the ground: no dodge.
    f.fighters[b].state.posture = Posture::Prone;
    assert!(!Guard::default().with_auto_dodge(&f, b).auto_dodge);
    // A played DODGE card is the card's dodge, not doubled.
    f.fighters[b].state.posture = Posture::Standing;
    let played = Guard::from_cards(&[MeleeCard::Dodge(DodgeDir::Left)]).with_auto_dodge(&f, b);
    assert!(!played.auto_dodge);
    assert_eq!(blow_odds(&f, "a", "b", played).0, dodged);
}

/// A hedge mage (MKL 4; quick step level 1, bind level 2) at (5,5) against a footman two
/// cells east, under `limits`.
fn mage(limits: PrepareSpellLimits) -> Fight {
    let r = destrier();
    let mut f = fight(
        board(GridKind::Square, 12, 12),
        vec![
            figures(&r, "w", "footman", 0, Cell::new(5, 5), Dir(2)),
            figures(&r, "b", "footman", 1, Cell::new(7, 5), Dir(6)),
        ],
        &["quick_step", "shackled"],
    );
    let w = ix(&f, "w");
    f.fighters[w].profile = tables().fighter("hedge_mage");
    f.prepare = limits;
    f
}

fn verdict(f: &Fight, id: &str, card: MeleeCard) -> Result<(), Ineligible> {
    let with = vec![card.clone()];
    let sit = Situation {
        fight: f,
        tables: tables(),
        tac_phase: false,
        tac: None,
        with: &with,
    };
    eligibility(&Card::Melee(card), &f.fighters[ix(f, id)], &sit)
}

fn bind() -> MeleeCard {
    MeleeCard::CastSpell {
        spell: "bind".into(),
        target: Some("b".into()),
    }
}

#[test]
fn prepare_spell_plain_one_card_readies_any_spell() {
    let mut f = mage(PrepareSpellLimits::default());
    let w = ix(&f, "w");
    f.round = 1;
    round(
        &mut f,
        &[("w", melee(vec![MeleeCard::PrepareSpell]))],
        &[],
        &[],
    );
    assert!(f.fighters[w].state.prepared);
    let refused = verdict(&f, "w", MeleeCard::PrepareSpell).expect_err("once");
    assert!(refused.reason.contains("already prepared"), "{refused}");
    assert!(
        verdict(&f, "w", bind()).is_ok(),
        "a level 2 spell after one card"
    );
}

#[test]
fn prepare_spell_per_level_option_needs_one_card_per_level() {
    let mut f = mage(PrepareSpellLimits {
        per_level: true,
        ..PrepareSpellLimits::default()
    });
    let w = ix(&f, "w");
    f.round = 1;
    let ev = round(
        &mut f,
        &[("w", melee(vec![MeleeCard::PrepareSpell]))],
        &[],
        &[],
    );
    assert!(
        joined(&ev).contains("1 PREPARE SPELL card towards"),
        "{ev:?}"
    );
    let why = verdict(&f, "w", bind()).expect_err("level 2 needs 2");
    assert!(why.reason.contains("needs 2 PREPARE SPELL cards"), "{why}");
    let quick = MeleeCard::CastSpell {
        spell: "quick_step".into(),
        target: None,
    };
    assert!(verdict(&f, "w", quick).is_ok(), "level 1 is ready");
    assert!(verdict(&f, "w", MeleeCard::PrepareSpell).is_ok());
    round(
        &mut f,
        &[("w", melee(vec![MeleeCard::PrepareSpell]))],
        &[],
        &[],
    );
    assert_eq!(f.fighters[w].state.preparations, 2);
    assert!(verdict(&f, "w", bind()).is_ok());
    // Two cards are enough for its highest spell (bind, level 2).
    assert!(verdict(&f, "w", MeleeCard::PrepareSpell).is_err());
    // Casting spends the preparation (the cast rolls 1: it works).
    round(&mut f, &[("w", melee(vec![bind()]))], &[1], &[]);
    assert_eq!(
        (
            f.fighters[w].state.prepared,
            f.fighters[w].state.preparations
        ),
        (false, 0)
    );
}

#[test]
fn prepare_spell_lost_when_disturbed_option_on_and_off() {
    for on in [false, true] {
        let mut f = mage(PrepareSpellLimits {
            lost_when_disturbed: on,
            ..PrepareSpellLimits::default()
        });
        let (w, b) = (ix(&f, "w"), ix(&f, "b"));
        f.place(b, Cell::new(6, 5), Dir(6));
        f.fighters[w].state.prepared = true;
        f.fighters[w].state.preparations = 1;
        f.round = 1;
        // b strikes the mage: 1 hits; damage and the rest from the script's ends.
        let card = MeleeCard::DeliverBlow { target: "w".into() };
        let ev = round(
            &mut f,
            &[("b", melee(vec![card]))],
            &[30, 100, 100],
            &[3, 3, 3],
        );
        let text = joined(&ev);
        assert!(text.contains("a hit"), "{text}");
        assert_eq!(f.fighters[w].state.prepared, !on, "{text}");
        assert_eq!(text.contains("counts for naught"), on, "{text}");
        if on {
            let why = verdict(&f, "w", MeleeCard::PrepareSpell).expect_err("next turn");
            assert!(why.reason.contains("next turn"), "{why}");
            flow::begin_turn(&mut f);
            assert!(verdict(&f, "w", MeleeCard::PrepareSpell).is_ok());
        }
    }
    // Not struck at all: the preparation stays, option on.
    let mut f = mage(PrepareSpellLimits {
        lost_when_disturbed: true,
        ..PrepareSpellLimits::default()
    });
    let w = ix(&f, "w");
    f.fighters[w].state.prepared = true;
    f.round = 1;
    round(&mut f, &[], &[], &[]);
    assert!(f.fighters[w].state.prepared);
}

#[test]
fn prepare_spell_halved_blows_option_on_and_off() {
    for on in [false, true] {
        let mut f = mage(PrepareSpellLimits {
            halved_blows: on,
            ..PrepareSpellLimits::default()
        });
        let w = ix(&f, "w");
        flow::begin_phase(&mut f);
        let full = f.fighters[w].blows;
        assert!(full >= 2, "a figure with blows to halve");
        let ev = round(
            &mut f,
            &[("w", melee(vec![MeleeCard::PrepareSpell]))],
            &[],
            &[],
        );
        let want = if on { full / 2 } else { full };
        assert_eq!(f.fighters[w].blows, want, "{ev:?}");
        assert_eq!(joined(&ev).contains("half his blows"), on);
        // Still holding the preparation at the next melee phase: caught preparing again.
        flow::begin_phase(&mut f);
        assert_eq!(f.fighters[w].blows, want);
    }
}

#[test]
fn rulesets_load_the_prepare_spell_switches_with_their_defaults() {
    for name in ["destrier", "asl", "realms"] {
        let r = crate::level::builtin_ruleset(name).expect("built in");
        assert_eq!(r.prepare_spell, PrepareSpellLimits::default(), "{name}");
    }
}

/// A berserk Red footman `k` with a Red friend `c` beside him and a Blue enemy far away.
fn berserk_and_friend() -> Fight {
    let r = destrier();
    let mut f = fight(
        board(GridKind::Square, 40, 12),
        vec![
            figures(&r, "k", "nordic_berserk", 0, Cell::new(5, 5), Dir(2)),
            figures(&r, "c", "footman", 0, Cell::new(5, 6), Dir(0)),
            figures(&r, "e", "footman", 1, Cell::new(30, 5), Dir(6)),
        ],
        &[],
    );
    let k = ix(&f, "k");
    f.fighters[k].state.berserk = true;
    f
}

#[test]
fn a_friend_calming_a_berserk_is_turned_on_at_50_less_iq_and_wisdom() {
    let f0 = berserk_and_friend();
    let (k, c, e) = (ix(&f0, "k"), ix(&f0, "c"), ix(&f0, "e"));
    let p = &f0.fighters[k].profile;
    let need = 50 - p.iq as i32 - p.wisdom as i32;
    assert_eq!(berserk::turn_on_chance(&f0, k, false), need);
    assert_eq!(
        need,
        seed::BERSERK_TURN_ON - 8 - 7,
        "the Nordic berserk's IQ 8, Wisdom 7"
    );
    // Rolled at the chance: he turns on his friend, who is now his enemy in the melee.
    let mut f = f0.clone();
    let mut dice = ScriptedDice::new(&[need as u32], &[]);
    let ev = berserk::calm(&mut f, c, k, 3, false, &mut dice);
    assert!(ev[0].text.contains("now treats c as an enemy"), "{ev:?}");
    assert_eq!(ev[0].rolls[0].value, need as u32);
    assert!(f.fighters[k].state.berserk);
    assert!(f.hostile(k, c) && f.hostile(c, k) && !f.hostile(c, c));
    assert!(f.enemies(k).any(|j| j == c));
    assert!(
        flow::melee_starts(&f, tables()),
        "they are in contact: a melee"
    );
    // A Nordic berserk always plays FEROCITY (§6): at his erstwhile friend now.
    let r = verdict(&f, "k", MeleeCard::Ferocity { target: "c".into() });
    assert!(r.is_ok(), "{r:?}");
    assert!(verdict(&f0, "k", MeleeCard::Ferocity { target: "c".into() }).is_err());
    // One try a turn.
    assert!(berserk::calm_ok(&f, c, k, 3).is_err());
    // When he calms at last (end of a phase, no enemy in sight) the feud ends.
    f.fighters[c].cell = Cell::new(20, 1);
    // Moved by hand: the index of who stands where is built afresh.
    f.near.clear();
    let mut dice = ScriptedDice::new(&[1], &[]);
    flow::end_phase(&mut f, &mut dice);
    assert!(!f.fighters[k].state.berserk && !f.hostile(k, c));
    // Rolled over the chance: the rage is halted.
    let mut f = f0.clone();
    let mut dice = ScriptedDice::new(&[need as u32 + 1], &[]);
    let ev = berserk::calm(&mut f, c, k, 3, false, &mut dice);
    assert!(ev[0].text.contains("halted"), "{ev:?}");
    assert!(!f.fighters[k].state.berserk && !f.hostile(k, c));
    // Who may try: a friend next to a berserk.
    let f = f0.clone();
    assert!(berserk::calm_ok(&f, c, k, 3).is_ok());
    assert!(berserk::calm_ok(&f, e, k, 3).is_err(), "an enemy, far away");
    assert!(berserk::calm_ok(&f, k, c, 3).is_err(), "c is not berserk");
    let mut g = f.clone();
    g.fighters[c].cell = Cell::new(5, 8);
    // Moved by hand: the index of who stands where is built afresh.
    g.near.clear();
    assert!(
        berserk::calm_ok(&g, c, k, 3)
            .unwrap_err()
            .contains("next to")
    );
}

#[test]
fn a_berserk_carries_nothing_he_does_not_need_to_fight() {
    assert!(berserk::carry_ok(true, false, Activity::PickUpComrade).is_err());
    assert!(berserk::carry_ok(true, false, Activity::PickUpItem).is_err());
    assert!(berserk::carry_ok(true, false, Activity::PickUpAndReady).is_ok());
    assert!(berserk::carry_ok(false, false, Activity::PickUpComrade).is_ok());
    // Surrounded and cutting his way out, he may carry (the seed's exception).
    assert!(berserk::carry_ok(true, true, Activity::PickUpComrade).is_ok());
}

#[test]
fn a_berserk_is_surrounded_with_enemies_on_three_sides_of_his_stand() {
    // The berserk at (5,5) faces E: front E, shield side N/NE, sword side S/SE, rear W.
    let r = destrier();
    let with = |cells: &[(i32, i32)]| {
        let mut groups = vec![figures(
            &r,
            "k",
            "nordic_berserk",
            0,
            Cell::new(5, 5),
            Dir(2),
        )];
        for (n, (x, y)) in cells.iter().enumerate() {
            let id = format!("e{n}");
            groups.push(figures(&r, &id, "footman", 1, Cell::new(*x, *y), Dir(6)));
        }
        let f = fight(board(GridKind::Square, 40, 12), groups, &[]);
        let k = ix(&f, "k");
        berserk::surrounded(&f, k)
    };
    assert!(
        !with(&[(6, 5), (5, 4)]),
        "front and shield side: a way out behind"
    );
    assert!(
        !with(&[(6, 5), (6, 4), (5, 4)]),
        "three enemies, but on two sides"
    );
    assert!(
        with(&[(6, 5), (5, 4), (4, 5)]),
        "front, shield side and rear"
    );
    assert!(with(&[(5, 4), (5, 6), (4, 5)]), "both flanks and the rear");
}

#[test]
fn a_berserks_lady_calming_him_is_turned_on_20_less() {
    let f0 = berserk_and_friend();
    let (k, c) = (ix(&f0, "k"), ix(&f0, "c"));
    let plain = berserk::turn_on_chance(&f0, k, false);
    assert_eq!(berserk::turn_on_chance(&f0, k, true), plain - 20);
    // Rolled between the two chances: a friend would be turned on, his Lady is not.
    let mut f = f0.clone();
    let mut dice = ScriptedDice::new(&[plain as u32], &[]);
    let ev = berserk::calm(&mut f, c, k, 3, true, &mut dice);
    assert!(ev[0].text.contains("for his Lady (or Man)"), "{ev:?}");
    assert!(!f.fighters[k].state.berserk && !f.hostile(k, c));
}

#[test]
fn a_berserk_aids_no_friend_while_an_enemy_is_closer() {
    let r = destrier();
    let mut f = fight(
        board(GridKind::Square, 12, 12),
        vec![
            figures(&r, "w", "footman", 0, Cell::new(5, 5), Dir(2)),
            figures(&r, "b", "footman", 1, Cell::new(7, 5), Dir(6)),
            figures(&r, "c", "footman", 0, Cell::new(8, 5), Dir(6)),
        ],
        &["quick_step", "shackled"],
    );
    let w = ix(&f, "w");
    f.fighters[w].profile = tables().fighter("hedge_mage");
    f.fighters[w].state.prepared = true;
    let quick = |t: Option<&str>| MeleeCard::CastSpell {
        spell: "quick_step".into(),
        target: t.map(Into::into),
    };
    assert!(verdict(&f, "w", quick(Some("c"))).is_ok(), "not berserk");
    f.fighters[w].state.berserk = true;
    let why = verdict(&f, "w", quick(Some("c"))).expect_err("b is closer than c");
    assert!(
        why.reason.starts_with("§6 FEROCITY") && why.reason.contains("enemy b is closer"),
        "{why}"
    );
    assert!(verdict(&f, "w", quick(None)).is_ok(), "on himself");
    assert!(
        berserk::aid_ok(&f, w, ix(&f, "b")).is_ok(),
        "b is no friend"
    );
    // The enemy farther than the friend: he may aid him.
    let b = ix(&f, "b");
    f.fighters[b].cell = Cell::new(5, 11);
    // Moved by hand: the index of who stands where is built afresh.
    f.near.clear();
    assert!(verdict(&f, "w", quick(Some("c"))).is_ok());
    // A fallen enemy does not hold him back.
    f.fighters[b].cell = Cell::new(6, 5);
    // Moved by hand: the index of who stands where is built afresh.
    f.near.clear();
    assert!(verdict(&f, "w", quick(Some("c"))).is_err());
    f.fighters[b].state.fallen = super::fight::Fallen::Incapacitated;
    assert!(verdict(&f, "w", quick(Some("c"))).is_ok());
}
