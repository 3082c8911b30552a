//! The MELEE card catalogue's own eligibility rules, card by card (§6), and the check of a
//! whole play: one movement card, the C8 forced MOVE, and its cost in blows (D7).

use super::*;

pub(super) fn melee_ok(m: &MeleeCard, i: usize, sit: &Situation) -> Result<(), Ineligible> {
    let fight = sit.fight;
    let t = sit.tables;
    let me = &fight.fighters[i];
    if let MeleeCard::PassiveShieldParry = m {
        let alone = sit
            .with
            .iter()
            .all(|c| matches!(c, MeleeCard::PassiveShieldParry));
        // D7: "As long as a figure has blows remaining, he cannot play more than six PASSIVE
        // SHIELD PARRIES in a row" — in reach of an enemy or not: a figure a bash pushed out
        // of reach, that will not close again, passes six times and then must spend a blow
        // (or loses them), so a melee nobody can or will fight on ends (D7, D8).
        if alone
            && sit.tac.is_none()
            && me.blows > 0
            && me.state.psp_streak >= seed::PSP_IN_A_ROW
            && me.state.stunned == 0
            && !at_speed(me)
        {
            return no(
                "D7",
                "six PASSIVE SHIELD PARRIES in a row while blows remain: it must spend a blow",
            );
        }
        return Ok(());
    }
    common(m, me)?;
    let berserk_no = |what: &str| -> Result<(), Ineligible> {
        if me.state.berserk {
            no(
                "§6 FEROCITY",
                format!("a berserk foreswears defence: no {what}"),
            )
        } else {
            Ok(())
        }
    };
    match m {
        MeleeCard::Fire { target } => {
            let j = enemy(sit, i, target)?;
            let Some(w) = me.in_hand(t).filter(|w| w.is_missile()) else {
                return no("§6 FIRE", "it holds no missile weapon");
            };
            if me.state.unloaded {
                return no("§6 FIRE", "its missile weapon is not loaded: RELOAD first");
            }
            if me.state.shots >= w.shots {
                return no(
                    "§6 FIRE",
                    format!("its {} shoots {} times a turn", me.in_hand_name(), w.shots),
                );
            }
            if fight.distance(i, j) > w.range || !fight.in_front_of(i, j) {
                return no(
                    "§6 FIRE",
                    format!("{target} must be in range ({}) and to its front", w.range),
                );
            }
        }
        MeleeCard::Reload => {
            if me.in_hand(t).is_none_or(|w| !w.is_missile()) {
                return no("§6 RELOAD", "it holds no missile weapon");
            }
            if !me.state.unloaded {
                return no("§6 RELOAD", "its missile weapon is already loaded");
            }
        }
        MeleeCard::DrawWeapon {
            weapon,
            shield,
            sheathe,
        } => {
            if me.is_mount() {
                return no("§6 DRAW WEAPON", "horses draw no weapons");
            }
            if weapon.is_none() && !shield {
                return no("§6 DRAW WEAPON", "draw a weapon, the shield, or both");
            }
            match weapon {
                Some(WeaponSlot::Main) => {
                    if me.state.main_lost || me.state.main_broken {
                        return no(
                            "§6 DRAW WEAPON",
                            format!("its {} is lost or broken", me.weapon),
                        );
                    }
                    if me.state.held == Held::Main {
                        return no("§6 DRAW WEAPON", "it already holds its main weapon");
                    }
                }
                Some(WeaponSlot::Sidearm) => {
                    if me.profile.sidearm.is_none() || me.state.sidearm_lost {
                        return no("§6 DRAW WEAPON", "it has no sidearm to draw");
                    }
                    if me.state.held == Held::Sidearm {
                        return no("§6 DRAW WEAPON", "it already holds its sidearm");
                    }
                }
                None => {}
            }
            if *shield && (!me.shield || me.state.shield_broken || !me.state.shield_down) {
                return no("§6 DRAW WEAPON", "it has no slung shield to ready");
            }
            if *sheathe && me.state.held == Held::Nothing {
                return no("§6 DRAW WEAPON", "its hand is empty: nothing to sheathe");
            }
        }
        MeleeCard::PrepareSpell => {
            if me.profile.caster == Caster::None || me.profile.spells.is_empty() {
                return no("§6 PREPARE SPELL", "it casts no spells");
            }
            if me.profile.caster != Caster::Mage {
                return no(
                    "§6 PREPARE SPELL",
                    "enchanters, skalds, bards and innate powers cast without preparing",
                );
            }
            crate::rules::melee::prepare::prepare_ok(fight, sit.tables, i)?;
        }
        MeleeCard::CastSpell { spell, target } => {
            crate::rules::melee::spells::castable(sit, i, spell, target.as_deref())?;
        }
        MeleeCard::PullRider { target } => {
            let j = enemy(sit, i, target)?;
            if me.is_mount() || me.mounted() {
                return no("§6 PULL RIDER", "only a figure on foot pulls a rider down");
            }
            if sit.tac.is_none() {
                return no(
                    "§6 GRAPPLES",
                    "grapples are played only together with a TAC card",
                );
            }
            let Some(h) = fight.fighters[j].mount else {
                return no("§6 PULL RIDER", format!("{target} is not mounted"));
            };
            if !fight.in_contact(i, h) {
                return no("§6 PULL RIDER", "it must be alongside the horse");
            }
            let side = fight.side_towards(h, me.cell);
            let cat = me.profile.kind == Kind::AgileBeast && sit.tac == Some(TacCard::Charge);
            if !matches!(
                side,
                crate::rules::grid::StandSide::Shield | crate::rules::grid::StandSide::Sword
            ) && !me.profile.tall
                && !cat
            {
                return no(
                    "§6 PULL RIDER",
                    "not from the horse's front or rear: only figures over 10 ft or charging cats",
                );
            }
        }
        MeleeCard::Restraint { target } => {
            let j = enemy(sit, i, target)?;
            grappler(me)?;
            if me.state.restraining.is_some() {
                return no("§6 RESTRAINT", "it already restrains someone");
            }
            contact_or_moving(sit, i, j)?;
        }
        MeleeCard::Toss { target } => {
            let j = enemy(sit, i, target)?;
            grappler(me)?;
            if sit.tac.is_none() {
                return no(
                    "§6 TOSS",
                    "a TOSS is played in the same card round as the TAC card that causes its body bash",
                );
            }
            if fight.fighters[j].mounted() || fight.fighters[j].is_mount() {
                return no(
                    "§6 TOSS",
                    "a mounted figure is pulled, not tossed (PULL RIDER)",
                );
            }
            contact_or_moving(sit, i, j)?;
        }
        MeleeCard::BreakFree => {
            if me.state.restrained_by.is_empty() {
                return no("§6 BREAK FREE", "nobody restrains it");
            }
        }
        MeleeCard::Punch { target } => {
            let j = enemy(sit, i, target)?;
            if me.is_mount() || !matches!(me.profile.kind, Kind::Humanoid | Kind::Monster) {
                return no("§6 PUNCH", "only men and humanoids punch");
            }
            reach_ok(sit, i, j, 1)?;
        }
        MeleeCard::Kick { target } => {
            let j = enemy(sit, i, target)?;
            kick_ok(sit, i, j)?;
        }
        MeleeCard::DeliverBlow { target } => {
            weapon_attack(sit, i, target)?;
            if me.state.berserk && me.profile.berserker {
                return no(
                    "§6 FEROCITY",
                    "a Nordic Berserk in his frenzy always plays FEROCITY",
                );
            }
        }
        MeleeCard::Ferocity { target } => {
            weapon_attack(sit, i, target)?;
            if !me.profile.trained {
                return no("§6 FEROCITY", "only trained fighters may use FEROCITY");
            }
        }
        MeleeCard::GreatBlow { target } => {
            weapon_attack(sit, i, target)?;
            if !matches!(
                me.profile.tradition,
                Tradition::Chivalry | Tradition::Nordic
            ) {
                return no("§6 GREAT BLOW", "only Chivalry and Nordics may GREAT BLOW");
            }
            if me
                .melee_weapon(t)
                .is_some_and(|w| w.kind == WeaponKind::Lance)
            {
                return no(
                    "§6 GREAT BLOW",
                    "great blows are not allowed with the lance",
                );
            }
        }
        MeleeCard::Move(step) => crate::rules::melee::moves::move_ok(sit, i, *step)?,
        MeleeCard::WeaponParry => {
            berserk_no("WEAPON PARRY")?;
            if me.is_mount()
                || me
                    .melee_weapon(t)
                    .is_none_or(|w| w.kind == WeaponKind::Natural)
            {
                return no("§6 WEAPON PARRY", "it holds no weapon to parry with");
            }
        }
        MeleeCard::DesperateDefense => {
            berserk_no("DESPERATE DEFENSE")?;
            if me.is_mount() {
                return no(
                    "§6 DESPERATE DEFENSE",
                    "horses defend by DODGE or not at all",
                );
            }
        }
        MeleeCard::ActiveShieldParry => {
            berserk_no("ACTIVE SHIELD PARRY")?;
            if !me.profile.trained {
                return no("§6 ACTIVE SHIELD PARRY", "trained fighters only");
            }
            if !me.shield_ready() {
                return no("§6 ACTIVE SHIELD PARRY", "it has no shield ready");
            }
        }
        MeleeCard::PassiveShieldParry => {}
        MeleeCard::Dodge(d) => crate::rules::melee::moves::dodge_ok(sit, i, *d)?,
        MeleeCard::Horse(h) => crate::rules::melee::moves::horse_ok(sit, i, h)?,
    }
    Ok(())
}

fn grappler(me: &Fighter) -> Result<(), Ineligible> {
    if me.is_mount() || me.mounted() || !matches!(me.profile.kind, Kind::Humanoid | Kind::Monster) {
        return no(
            "§6 GRAPPLES",
            "only men, humanoids and monsters on foot grapple",
        );
    }
    Ok(())
}

fn contact_or_moving(sit: &Situation, i: usize, j: usize) -> Result<(), Ineligible> {
    let fight = sit.fight;
    if fight.in_contact(i, j) {
        return Ok(());
    }
    if sit.tac.is_some_and(|t| t.moves())
        && fight.distance(i, j) - 1
            <= if sit.tac_phase {
                seed::JOIN_TAC
            } else {
                seed::JOIN_MELEE
            }
    {
        return Ok(());
    }
    no(
        "§6 GRAPPLES",
        format!("{} must be in contact", fight.fighters[j].id),
    )
}

fn kick_ok(sit: &Situation, i: usize, j: usize) -> Result<(), Ineligible> {
    let fight = sit.fight;
    let me = &fight.fighters[i];
    let tgt = &fight.fighters[j];
    let target_mounted = tgt.mounted();
    if me.is_mount() {
        match me.profile.hooves {
            Hooves::None => return no("§6 KICK", "only hooved animals kick"),
            Hooves::Mule => {}
            Hooves::Horse => {
                let side = fight.side_towards(i, tgt.cell);
                if !matches!(
                    side,
                    crate::rules::grid::StandSide::Front | crate::rules::grid::StandSide::Rear
                ) {
                    return no(
                        "D11",
                        "a horse kicks only to its front and rear (a mule kicks all round)",
                    );
                }
            }
        }
        if !fight.in_contact(i, j) {
            return no("§6 KICK", format!("{} must be in contact", tgt.id));
        }
        return Ok(());
    }
    match me.profile.kind {
        Kind::Humanoid => {
            if !me.mounted() && target_mounted {
                return no("§6 KICK", "a man on foot cannot KICK a man on horse");
            }
            if me.mounted() && (target_mounted || tgt.is_mount()) {
                return no("§6 KICK", "from the saddle a man kicks only a man on foot");
            }
        }
        Kind::Monster | Kind::DullMonster => {
            if target_mounted && !me.profile.tall {
                return no(
                    "§6 KICK",
                    "a monster kicks a man on horseback only if over 10 ft tall",
                );
            }
        }
        _ => return no("§6 KICK", "it has no kick"),
    }
    reach_ok(sit, i, j, 1)
}

/// nothing, the C8 forced MOVE, and the blows to pay for it all (D7). Returns its cost.
pub fn check_play(
    fight: &Fight,
    i: usize,
    c: &Choice,
    tables: &Tables,
    tac_phase: bool,
) -> Result<u8, Ineligible> {
    let me = &fight.fighters[i];
    let sit = Situation {
        fight,
        tables,
        tac_phase,
        tac: c.tac,
        with: &c.melee,
    };
    if let Some(t) = c.tac {
        eligibility(&Card::Tac(t), me, &sit)?;
        if t.needs_target() && c.tac_target.is_none() {
            return no(
                "§6 TAC cards",
                format!("{} needs a designated enemy (tac_target)", t.name()),
            );
        }
    }
    if let Some(id) = &c.tac_target {
        if c.tac.is_none() {
            return no("§6 TAC cards", "a TAC target without a TAC card");
        }
        enemy(&sit, i, id)?;
    }
    for m in &c.melee {
        melee_eligibility(m, i, &sit)?;
    }
    if c.melee.iter().filter(|m| m.is_movement()).count() > 1 {
        return no(
            "§6 MOVE",
            "one movement card (MOVE, DODGE, horse MOVE) per figure per card round",
        );
    }
    for (k, m) in c.melee.iter().enumerate() {
        if m.is_defence() && c.melee[..k].contains(m) {
            return no("§6", format!("{} is played once a round", m.name()));
        }
    }
    if me.is_mount() && super::has_dodge(&c.melee) && c.melee.len() > 1 {
        return no(
            "§6 DODGE",
            "a horse dodges only when it is not otherwise occupied",
        );
    }
    let runs = c
        .melee
        .iter()
        .any(|m| matches!(m, MeleeCard::Horse(HorseCard::Move)));
    if at_speed(me) && me.blows > 0 && !tac_phase && !runs {
        return no(
            "C8",
            "a steed that moved at canter or faster must play MOVE at every opportunity (add \
             MOVE; it may TURN with it)",
        );
    }
    if c.melee
        .iter()
        .filter(|m| matches!(m, MeleeCard::Horse(HorseCard::Turn { .. })))
        .count()
        > 1
    {
        return no("C8", "one TURN per card round: name the heading it ends on");
    }
    let cost = play_cost(fight, i, c, tables, tac_phase);
    if cost > me.blows {
        return no(
            "D7",
            format!(
                "these cards cost {cost} blows; {} has {} left",
                me.id, me.blows
            ),
        );
    }
    Ok(cost)
}
