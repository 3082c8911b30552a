//! Every TAC and MELEE card of Destrier (§6): what it is, what it costs in blows and who may
//! play it now. The desktop game greys a card with exactly the [`Ineligible`] reason given
//! here, and orders are refused with it.

use super::fight::{Fallen, Fight, Fighter, Held, Posture};
use super::tables::{Caster, Hooves, Kind, SpellTarget, Tables, Tradition, WeaponKind, seed};
use crate::rules::gait::Gait;
use crate::rules::grid::Dir;
use crate::rules::ruleset::Encumbrance;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The TAC cards (§6), played face down with a MELEE card in the TAC phase (D6) and to join a
/// melee in the card rounds (D8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum TacCard {
    /// Half a move away from every enemy, in good order.
    Retreat,
    /// A full move away, back to the enemy.
    RunAway,
    /// Up to 1" straight towards a target (named, or the nearest in front or to the side).
    Close,
    /// No movement unless an enemy approaches; then RETREAT or stand.
    KeepDistance,
    /// No movement.
    StandGround,
    /// Up to 2" straight to contact a named enemy.
    Fleche,
    /// A full charge bonus (3" in the melee rounds) straight at a named enemy; once a turn.
    Charge,
}

impl TacCard {
    /// Every TAC card, in table order.
    pub const ALL: [TacCard; 7] = [
        TacCard::Retreat,
        TacCard::RunAway,
        TacCard::Close,
        TacCard::KeepDistance,
        TacCard::StandGround,
        TacCard::Fleche,
        TacCard::Charge,
    ];

    /// The name printed on the card.
    pub fn name(self) -> &'static str {
        match self {
            TacCard::Retreat => "RETREAT",
            TacCard::RunAway => "RUN AWAY",
            TacCard::Close => "CLOSE",
            TacCard::KeepDistance => "KEEP DISTANCE",
            TacCard::StandGround => "STAND GROUND",
            TacCard::Fleche => "FLECHE",
            TacCard::Charge => "CHARGE",
        }
    }

    /// Cards that result in movement (D8: they cost 2 blows in the card rounds, others 1).
    pub fn moves(self) -> bool {
        !matches!(self, TacCard::KeepDistance | TacCard::StandGround)
    }

    /// FLECHE and CHARGE need a designated enemy.
    pub fn needs_target(self) -> bool {
        matches!(self, TacCard::Fleche | TacCard::Charge)
    }
}

/// Which way a DODGE goes, by the dodger's own orientation (§6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DodgeDir {
    /// Towards its shield side.
    Left,
    /// Towards its sword side.
    Right,
    /// Towards its rear.
    Back,
}

impl DodgeDir {
    /// All three.
    pub const ALL: [DodgeDir; 3] = [DodgeDir::Left, DodgeDir::Right, DodgeDir::Back];

    /// Lower-case name for the log.
    pub fn word(self) -> &'static str {
        match self {
            DodgeDir::Left => "left",
            DodgeDir::Right => "right",
            DodgeDir::Back => "back",
        }
    }
}

/// What a MOVE 1" card does (§6 MOVEMENT, "Move 1"/turn 90°+").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MoveStep {
    /// One cell in a direction.
    To(Dir),
    /// Turn to face a direction (a turn over 45° costs a blow, D16).
    Face(Dir),
    /// Stand up: kneeling, at once; prone, on 1–4 on a d6.
    StandUp,
}

/// Which weapon DRAW WEAPON takes to hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WeaponSlot {
    /// The template's weapon.
    Main,
    /// The profile's sidearm.
    Sidearm,
}

/// Horse cards (§6 HORSE MELEE CARDS). A horse's KICK is the hand-to-hand KICK card, as the
/// seed says; HAMSTRING HORSE is played by a figure on foot against a horse.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HorseCard {
    /// Straight ahead by the horse's MOVE card (C8 bonuses at speed).
    Move,
    /// A whirling turn in place to a new heading.
    Wheel {
        /// The new heading.
        facing: Dir,
    },
    /// Trample a prone figure within 1" (2 blows; with a KICK 3).
    Trample {
        /// The prone figure.
        target: String,
    },
    /// Hamstring a horse in contact (once per turn per figure).
    Hamstring {
        /// The horse.
        target: String,
    },
}

/// The MELEE cards (§6).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MeleeCard {
    /// Loose a loaded missile weapon (no blows; shots per turn limit it).
    Fire {
        /// Whom at.
        target: String,
    },
    /// Reload a missile weapon (no blows).
    Reload,
    /// Take a weapon (and/or ready the shield) to hand: 2 blows each, +2 to sheathe what it
    /// holds instead of dropping it.
    DrawWeapon {
        /// Which weapon; `None` readies only the shield.
        #[serde(default = "sidearm")]
        weapon: Option<WeaponSlot>,
        /// Also ready the shield.
        #[serde(default)]
        shield: bool,
        /// Sheathe what it holds instead of dropping it.
        #[serde(default)]
        sheathe: bool,
    },
    /// A Mage readies a spell (no blows).
    PrepareSpell,
    /// Cast a known spell: 1 blow, 2 for each further spell in the turn.
    CastSpell {
        /// Key of the spell.
        spell: String,
        /// The target; `None` is the caster itself.
        #[serde(default)]
        target: Option<String>,
    },
    /// Grapple a rider out of the saddle (with a TAC card).
    PullRider {
        /// The rider.
        target: String,
    },
    /// Restrain a figure after an opening.
    Restraint {
        /// Whom.
        target: String,
    },
    /// Toss a figure on a body bash (with the TAC card that causes it).
    Toss {
        /// Whom.
        target: String,
    },
    /// Break a restraint.
    BreakFree,
    /// A hand-to-hand punch.
    Punch {
        /// Whom.
        target: String,
    },
    /// A kick, by a man or a hooved animal.
    Kick {
        /// Whom.
        target: String,
    },
    /// The ordinary blow.
    DeliverBlow {
        /// Whom.
        target: String,
    },
    /// A ferocious blow that may turn the fighter berserk.
    Ferocity {
        /// Whom.
        target: String,
    },
    /// Chivalry's and Nordics' great blow.
    GreatBlow {
        /// Whom.
        target: String,
    },
    /// MOVE 1": a step, a turn, or standing up.
    Move(MoveStep),
    /// The weapon's parry bonus against attacks through the front.
    WeaponParry,
    /// −25% to attacks through the front, no counter-blow.
    DesperateDefense,
    /// Trained fighters' shield parry (free once a turn).
    ActiveShieldParry,
    /// Shield side only, 10%, no blows: the card of a figure doing nothing.
    PassiveShieldParry,
    /// Dodge ½" left, right or back.
    Dodge(DodgeDir),
    /// A horse card.
    Horse(HorseCard),
}

fn sidearm() -> Option<WeaponSlot> {
    Some(WeaponSlot::Sidearm)
}

impl MeleeCard {
    /// The name printed on the card.
    pub fn name(&self) -> &'static str {
        match self {
            MeleeCard::Fire { .. } => "FIRE/THROW MISSILE",
            MeleeCard::Reload => "RELOAD",
            MeleeCard::DrawWeapon { .. } => "DRAW WEAPON",
            MeleeCard::PrepareSpell => "PREPARE SPELL",
            MeleeCard::CastSpell { .. } => "CAST SPELL",
            MeleeCard::PullRider { .. } => "PULL RIDER FROM SADDLE",
            MeleeCard::Restraint { .. } => "RESTRAINT",
            MeleeCard::Toss { .. } => "TOSS",
            MeleeCard::BreakFree => "BREAK FREE",
            MeleeCard::Punch { .. } => "PUNCH",
            MeleeCard::Kick { .. } => "KICK",
            MeleeCard::DeliverBlow { .. } => "DELIVER BLOW",
            MeleeCard::Ferocity { .. } => "FEROCITY",
            MeleeCard::GreatBlow { .. } => "GREAT BLOW",
            MeleeCard::Move(_) => "MOVE 1\"",
            MeleeCard::WeaponParry => "WEAPON PARRY",
            MeleeCard::DesperateDefense => "DESPERATE DEFENSE",
            MeleeCard::ActiveShieldParry => "ACTIVE SHIELD PARRY",
            MeleeCard::PassiveShieldParry => "PASSIVE SHIELD PARRY",
            MeleeCard::Dodge(DodgeDir::Left) => "DODGE LEFT",
            MeleeCard::Dodge(DodgeDir::Right) => "DODGE RIGHT",
            MeleeCard::Dodge(DodgeDir::Back) => "DODGE BACK",
            MeleeCard::Horse(HorseCard::Move) => "MOVE (horse)",
            MeleeCard::Horse(HorseCard::Wheel { .. }) => "WHEEL",
            MeleeCard::Horse(HorseCard::Trample { .. }) => "TRAMPLE PRONE FIGURE",
            MeleeCard::Horse(HorseCard::Hamstring { .. }) => "HAMSTRING HORSE",
        }
    }

    /// The figure a card is aimed at.
    pub fn target(&self) -> Option<&str> {
        match self {
            MeleeCard::Fire { target }
            | MeleeCard::PullRider { target }
            | MeleeCard::Restraint { target }
            | MeleeCard::Toss { target }
            | MeleeCard::Punch { target }
            | MeleeCard::Kick { target }
            | MeleeCard::DeliverBlow { target }
            | MeleeCard::Ferocity { target }
            | MeleeCard::GreatBlow { target }
            | MeleeCard::Horse(HorseCard::Trample { target })
            | MeleeCard::Horse(HorseCard::Hamstring { target }) => Some(target),
            MeleeCard::CastSpell { target, .. } => target.as_deref(),
            _ => None,
        }
    }

    /// Attack cards (§6 DODGE: a correct guess only matters with one).
    pub fn is_attack(&self) -> bool {
        matches!(
            self,
            MeleeCard::Fire { .. }
                | MeleeCard::Punch { .. }
                | MeleeCard::Kick { .. }
                | MeleeCard::DeliverBlow { .. }
                | MeleeCard::Ferocity { .. }
                | MeleeCard::GreatBlow { .. }
                | MeleeCard::Horse(HorseCard::Trample { .. })
        )
    }

    /// Defensive cards (§6: followers of a dodger, counter-blow flurries).
    pub fn is_defence(&self) -> bool {
        matches!(
            self,
            MeleeCard::WeaponParry
                | MeleeCard::DesperateDefense
                | MeleeCard::ActiveShieldParry
                | MeleeCard::PassiveShieldParry
                | MeleeCard::Dodge(_)
        )
    }

    /// Cards that move the figure (one per card round, our reading).
    pub fn is_movement(&self) -> bool {
        matches!(
            self,
            MeleeCard::Move(MoveStep::To(_))
                | MeleeCard::Dodge(_)
                | MeleeCard::Horse(HorseCard::Move)
        )
    }
}

impl fmt::Display for MeleeCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MeleeCard::CastSpell { spell, target } => {
                write!(f, "CAST SPELL {spell}")?;
                if let Some(t) = target {
                    write!(f, " on {t}")?;
                }
                Ok(())
            }
            MeleeCard::DrawWeapon {
                weapon,
                shield,
                sheathe,
            } => {
                write!(f, "DRAW WEAPON")?;
                match weapon {
                    Some(WeaponSlot::Main) => write!(f, " (main weapon")?,
                    Some(WeaponSlot::Sidearm) => write!(f, " (sidearm")?,
                    None => write!(f, " (")?,
                }
                if *shield {
                    write!(f, "{}shield", if weapon.is_some() { " and " } else { "" })?;
                }
                if *sheathe {
                    write!(f, ", sheathing what it holds")?;
                }
                write!(f, ")")
            }
            MeleeCard::Move(MoveStep::To(d)) => write!(f, "MOVE 1\" (direction {})", d.0),
            MeleeCard::Move(MoveStep::Face(d)) => write!(f, "MOVE 1\" (turn to {})", d.0),
            MeleeCard::Move(MoveStep::StandUp) => write!(f, "MOVE 1\" (stand up)"),
            MeleeCard::Horse(HorseCard::Wheel { facing }) => write!(f, "WHEEL to {}", facing.0),
            c => match c.target() {
                Some(t) => write!(f, "{} → {t}", c.name()),
                None => f.write_str(c.name()),
            },
        }
    }
}

/// Any card: what the desktop game lists in a figure's hand.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Card {
    /// A TAC card.
    Tac(TacCard),
    /// A MELEE (or horse) card.
    Melee(MeleeCard),
}

/// Why a card may not be played now: the rule's tag and the reason in a player's words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ineligible {
    /// The rule (`§6 GREAT BLOW`, `D7`, `C8`).
    pub tag: &'static str,
    /// What stops it.
    pub reason: String,
}

impl fmt::Display for Ineligible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.tag, self.reason)
    }
}

fn no<T>(tag: &'static str, reason: impl Into<String>) -> Result<T, Ineligible> {
    Err(Ineligible {
        tag,
        reason: reason.into(),
    })
}

/// What a figure plays in one card round (or the TAC phase), face down until the reveal.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choice {
    /// A TAC card (free in the TAC phase; 2 blows if it moves, else 1, in the card rounds).
    pub tac: Option<TacCard>,
    /// The TAC card's designated enemy (FLECHE, CHARGE; CLOSE optionally).
    pub tac_target: Option<String>,
    /// MELEE cards, played together if the blows pay for them (D7). None is PASSIVE SHIELD
    /// PARRY: "standing quietly".
    pub melee: Vec<MeleeCard>,
    /// The figure has nothing it may play: its remaining blows are lost (D7).
    #[serde(skip)]
    pub forfeit: bool,
}

/// The context a card is judged in.
pub struct Situation<'a> {
    /// The fight.
    pub fight: &'a Fight,
    /// The tables.
    pub tables: &'a Tables,
    /// The TAC phase (TAC cards are free and everyone may play one) or a card round.
    pub tac_phase: bool,
    /// The TAC card played with it this round, if any.
    pub tac: Option<TacCard>,
    /// Every MELEE card of the same play.
    pub with: &'a [MeleeCard],
}

/// C8: a mount that moved at canter or faster plays only MOVE in melee.
pub fn at_speed(f: &Fighter) -> bool {
    f.is_mount() && f.state.melee_gait.unwrap_or(f.gait) >= Gait::Canter
}

/// C8: the TAC cards a mounted figure may play at its mount's speed.
pub fn c8_allows(gait: Gait, card: TacCard) -> bool {
    use TacCard::*;
    match gait {
        Gait::Halt | Gait::Walk | Gait::Trot => matches!(card, StandGround | Close | Retreat),
        Gait::Canter => matches!(card, Fleche | Retreat),
        Gait::Gallop => matches!(card, Charge | RunAway),
    }
}

/// A rider's or foot figure's speed for C7/C8: its mount's melee gait.
pub fn speed_of(fight: &Fight, i: usize) -> Gait {
    let f = &fight.fighters[i];
    let m = f.mount.map_or(f, |m| &fight.fighters[m]);
    m.state.melee_gait.unwrap_or(m.gait)
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
fn melee_eligibility(m: &MeleeCard, i: usize, sit: &Situation) -> Result<(), Ineligible> {
    if sit.fight.fighters[i].state.fallen != Fallen::Up {
        return no(
            "§6",
            format!("{} is out of the fight", sit.fight.fighters[i].id),
        );
    }
    melee_ok(m, i, sit)
}

fn tac_ok(t: TacCard, i: usize, sit: &Situation) -> Result<(), Ineligible> {
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
        let in_contact = fight.enemies(i).any(|j| fight.in_contact(i, j));
        let near = fight
            .nearest_enemy_distance(i)
            .is_some_and(|d| d - 1 <= seed::JOIN_MELEE);
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
fn common(m: &MeleeCard, me: &Fighter) -> Result<(), Ineligible> {
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
        return no(
            "§6 TOSS",
            "knocked down: it must stand up (MOVE 1\", 1 blow, 1–4 on a d6) before anything else",
        );
    }
    if at_speed(me) && !matches!(m, MeleeCard::Horse(HorseCard::Move)) {
        return no(
            "C8",
            "a steed that moved at canter or faster plays only MOVE cards in the melee",
        );
    }
    Ok(())
}

/// An enemy target that is up.
fn enemy(sit: &Situation, i: usize, id: &str) -> Result<usize, Ineligible> {
    let fight = sit.fight;
    match fight.index_of(id) {
        Some(j) if fight.fighters[j].side != fight.fighters[i].side => {
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
fn weapon_attack(sit: &Situation, i: usize, target: &str) -> Result<usize, Ineligible> {
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

fn reach_ok(sit: &Situation, i: usize, j: usize, reach: i32) -> Result<(), Ineligible> {
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

fn melee_ok(m: &MeleeCard, i: usize, sit: &Situation) -> Result<(), Ineligible> {
    let fight = sit.fight;
    let t = sit.tables;
    let me = &fight.fighters[i];
    if let MeleeCard::PassiveShieldParry = m {
        let alone = sit
            .with
            .iter()
            .all(|c| matches!(c, MeleeCard::PassiveShieldParry));
        let contact = || fight.enemies(i).any(|j| fight.within_reach(i, j, t));
        if alone
            && sit.tac.is_none()
            && me.blows > 0
            && me.state.psp_streak >= seed::PSP_IN_A_ROW
            && me.state.stunned == 0
            && !at_speed(me)
            && contact()
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
            if me.state.prepared {
                return no("§6 PREPARE SPELL", "a spell is already prepared");
            }
        }
        MeleeCard::CastSpell { spell, target } => {
            super::spells::castable(sit, i, spell, target.as_deref())?;
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
        MeleeCard::Move(step) => super::moves::move_ok(sit, i, *step)?,
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
        MeleeCard::Dodge(d) => super::moves::dodge_ok(sit, i, *d)?,
        MeleeCard::Horse(h) => super::moves::horse_ok(sit, i, h)?,
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

/// Checks a whole play: each card, one movement card, no card twice where that means
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
    if me.is_mount()
        && c.melee.iter().any(|m| matches!(m, MeleeCard::Dodge(_)))
        && c.melee.len() > 1
    {
        return no(
            "§6 DODGE",
            "a horse dodges only when it is not otherwise occupied",
        );
    }
    if at_speed(me) && me.blows > 0 && !tac_phase && c.melee.is_empty() {
        return no(
            "C8",
            "a steed that moved at canter or faster must play MOVE at every opportunity",
        );
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

/// The spell targets a card names: the caster itself when `None`.
pub fn spell_target_ok(kind: SpellTarget, same_side: bool) -> bool {
    match kind {
        SpellTarget::Friend => same_side,
        SpellTarget::Enemy => !same_side,
    }
}
