//! Who may play a card now (§6): the figure's state, the TAC cards' limits, and the reach and
//! target checks every weapon attack shares (D11).

use super::*;

/// May `me` play `card` now? `Err` carries the rule and the reason the game shows.
pub fn eligibility(card: &Card, me: &Fighter, sit: &Situation) -> Result<(), Ineligible> {
    let fight = sit.fight;
    let Some(i) = fight.position_of(me) else {
        return no("D6", format!("{} is not in this fight", me.id));
    };
    if me.state.fallen != Fallen::Up {
        return no("§6", format!("{} is out of the fight", me.id));
    }
    match card {
        Card::Tac(t) => tac_ok(*t, i, sit),
        Card::Melee(m) => melee_ok(m, i, sit),
    }
}

/// [`eligibility`] of a MELEE card, without wrapping (and cloning) it into a [`Card`].
pub(super) fn melee_eligibility(
    m: &MeleeCard,
    i: usize,
    sit: &Situation,
) -> Result<(), Ineligible> {
    if sit.fight.fighters[i].state.fallen != Fallen::Up {
        return no(
            "§6",
            format!("{} is out of the fight", sit.fight.fighters[i].id),
        );
    }
    melee_ok(m, i, sit)
}

pub(super) fn tac_ok(t: TacCard, i: usize, sit: &Situation) -> Result<(), Ineligible> {
    use TacCard::*;
    let fight = sit.fight;
    let me = &fight.fighters[i];
    if me.is_mount() {
        return no(
            "C8",
            "a horse plays no TAC card of its own: its rider's card, chosen by its speed, is the pair's",
        );
    }
    if !sit.tac_phase {
        // Only the enemies a 3" move could join are looked at (the nearest at most
        // JOIN_MELEE + 1 cells off), up to the first found: a search that widened until it
        // found someone read the whole fight for a figure whose enemies had all fallen
        // (issue 33, item 3).
        let in_contact = fight.any_enemy_within(i, 1, |j| fight.in_contact(i, j));
        let near = in_contact || fight.any_enemy_within(i, seed::JOIN_MELEE + 1, |_| true);
        if me.state.fresh_contact {
            if me.state.moved_against && !matches!(t, Retreat | RunAway | StandGround) {
                return no(
                    "§6 TAC cards",
                    "moved against while in melee, it may answer only with RETREAT, RUN AWAY or STAND GROUND",
                );
            }
        } else if in_contact || !near {
            return no(
                "D8",
                "in the card rounds a TAC card is played only to join a melee: out of contact, with an enemy within a 3\" move",
            );
        }
        let c = if t.moves() { 2 } else { 1 };
        if me.blows < c {
            return no(
                "D8",
                format!(
                    "{} costs {c} blows in the card rounds; {} left",
                    t.name(),
                    me.blows
                ),
            );
        }
    }
    if me.state.berserk && !matches!(t, Charge | Fleche) {
        return no("§6 FEROCITY", "a berserk plays only CHARGE or FLECHE");
    }
    if t.moves() {
        if me.state.posture != Posture::Standing {
            return no("§6", "it must stand up before it can move");
        }
        if !me.state.restrained_by.is_empty() {
            return no("§6 RESTRAINT", "it is restrained: it must BREAK FREE first");
        }
    }
    if t == Charge && me.state.charged {
        return no("D8", "a figure may play CHARGE only once per turn");
    }
    if let Some(m) = me.mount {
        let g = speed_of(fight, i);
        if fight.fighters[m].state.hamstrung && t.moves() {
            return no(
                "§6 HAMSTRING HORSE",
                "its horse is hamstrung and cannot move",
            );
        }
        if !c8_allows(g, t) {
            return no(
                "C8",
                format!(
                    "a mount at the {g} plays only {}",
                    TacCard::ALL
                        .iter()
                        .filter(|c| c8_allows(g, **c))
                        .map(|c| c.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        }
    } else {
        let k = me.profile.kind;
        let enc = me.enc;
        let ok = match t {
            Retreat => enc != Encumbrance::Full && k != Kind::DullMonster,
            RunAway => true,
            Close => {
                (me.intelligent() && enc != Encumbrance::Full)
                    || (k == Kind::Animal && me.state.charged_ever)
                    || k == Kind::AgileBeast
            }
            KeepDistance => k != Kind::DullMonster,
            StandGround => {
                me.intelligent()
                    || (matches!(k, Kind::Animal | Kind::AgileBeast) && me.profile.trained)
            }
            Fleche => me.intelligent() && enc == Encumbrance::None,
            Charge => k != Kind::Humanoid || enc == Encumbrance::None,
        };
        if !ok {
            let why = match t {
                Retreat => {
                    "only unencumbered and partly encumbered humanoids, animals and intelligent monsters may RETREAT"
                }
                Close => {
                    "only unencumbered or partly encumbered intelligent figures (animals after a charge, dogs, wolves and cats always) may CLOSE"
                }
                KeepDistance => "unintelligent monsters may not KEEP DISTANCE",
                StandGround => "only intelligent figures and trained animals may STAND GROUND",
                Fleche => "only unencumbered intelligent figures may FLECHE",
                _ => "only unencumbered intelligent figures, animals and monsters may CHARGE",
            };
            return no("§6 TAC cards", why);
        }
    }
    Ok(())
}

/// The checks every MELEE card but PASSIVE SHIELD PARRY shares: stun, restraint, prone.
pub(super) fn common(m: &MeleeCard, me: &Fighter) -> Result<(), Ineligible> {
    if me.state.stunned > 0 {
        return no(
            "§6 bash results",
            "stunned: it plays only PASSIVE SHIELD PARRY until it recovers",
        );
    }
    if !me.state.restrained_by.is_empty()
        && !matches!(m, MeleeCard::BreakFree | MeleeCard::PassiveShieldParry)
    {
        return no(
            "§6 RESTRAINT",
            "restrained: it may only BREAK FREE or PASSIVE SHIELD PARRY",
        );
    }
    if me.state.posture == Posture::Prone
        && !matches!(
            m,
            MeleeCard::Move(MoveStep::StandUp)
                | MeleeCard::BreakFree
                | MeleeCard::PrepareSpell
                | MeleeCard::CastSpell { .. }
                | MeleeCard::Reload
                | MeleeCard::DrawWeapon { .. }
        )
    {
        // Seed 003, MOVE 1": "when a figure needs to perform some unusual activity, such as
        // … standing up, etc., he uses this card" — whatever put it down.
        return no(
            "§6 MOVE 1\"",
            "down: it must stand up (MOVE 1\", 1 blow, 1–4 on a d6) before anything else",
        );
    }
    if at_speed(me)
        && !matches!(
            m,
            MeleeCard::Horse(HorseCard::Move) | MeleeCard::Horse(HorseCard::Turn { .. })
        )
    {
        return no(
            "C8",
            "a steed that moved at canter or faster plays only MOVE cards in the melee (it may \
             turn as it runs, within seed 004's rate); it plays other cards again once slowed \
             to a trot",
        );
    }
    Ok(())
}

/// An enemy target that is up.
pub(super) fn enemy(sit: &Situation, i: usize, id: &str) -> Result<usize, Ineligible> {
    let fight = sit.fight;
    match fight.index_of(id) {
        Some(j) if fight.hostile(i, j) => {
            if fight.fighters[j].is_up() {
                Ok(j)
            } else {
                no("§6", format!("{id} is already out of the fight"))
            }
        }
        Some(_) => no("§6", format!("{id} is on its own side")),
        None => no("§6", format!("there is no figure {id:?} in the fight")),
    }
}

/// Weapon attacks: in reach, through a frontal side (D11).
pub(super) fn weapon_attack(sit: &Situation, i: usize, target: &str) -> Result<usize, Ineligible> {
    let fight = sit.fight;
    let me = &fight.fighters[i];
    let j = enemy(sit, i, target)?;
    if me.is_mount() {
        return no(
            "§6 HORSE MELEE CARDS",
            "a horse strikes with KICK and TRAMPLE, not with weapon cards",
        );
    }
    // One look into the weapon table for the whole check.
    let w = match me.in_hand(sit.tables) {
        Some(w) if w.is_missile() => {
            return no(
                "§6 DRAW WEAPON",
                format!(
                    "its {} is a missile weapon: FIRE it, or DRAW WEAPON",
                    me.in_hand_name()
                ),
            );
        }
        Some(w) => w,
        None => {
            return no(
                "§6 DRAW WEAPON",
                "it holds no weapon: DRAW WEAPON, or PUNCH and KICK",
            );
        }
    };
    reach_ok(sit, i, j, me.reach_with(Some(w)))?;
    Ok(j)
}

pub(super) fn reach_ok(sit: &Situation, i: usize, j: usize, reach: i32) -> Result<(), Ineligible> {
    let fight = sit.fight;
    let moving = sit.tac.is_some_and(|t| t.moves());
    let d = fight.distance(i, j);
    if d > reach {
        // A TAC card that moves may bring it into reach first (D6: TAC movement, then blows).
        let join = if sit.tac_phase {
            seed::JOIN_TAC
        } else {
            seed::JOIN_MELEE
        };
        if moving && d - reach <= join {
            return Ok(());
        }
        return no(
            "D11",
            format!(
                "{} is {d} cells away; its reach is {reach}",
                fight.fighters[j].id
            ),
        );
    }
    if !moving && !fight.in_front_of(i, j) {
        return no(
            "D11",
            format!(
                "{} is behind it: attacks go only through its frontal sides",
                fight.fighters[j].id
            ),
        );
    }
    Ok(())
}
