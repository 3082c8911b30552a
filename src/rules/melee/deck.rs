//! The cards themselves (§6, D6, D7): every TAC and MELEE card, the horse's cards and a
//! figure's face-down choice, as data. They sit below the fight and the tables that name
//! them; what a card costs and who may play it now is [`super::cards`]' business.

use crate::rules::grid::{Dir, GridKind};
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
    /// A steed at canter or faster turns to a new heading as it runs (C8): no blow, and the
    /// turns of a melee phase may total no more than seed 004's rate allows ("Cavalry may turn
    /// 45° per ¼ of their movement, or per ½ move at Gallop") for the ground its MOVE cards
    /// have covered, this round's included.
    Turn {
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
            MeleeCard::Horse(HorseCard::Turn { .. }) => "TURN (horse at speed)",
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

impl MeleeCard {
    /// The card as a player reads it on a map of `grid`: a MOVE, WHEEL or TURN names its way
    /// by the compass (`MOVE 1" north-east`, `TURN to face west`), where the card's name in
    /// orders and picks ([`fmt::Display`]) keeps the direction's number (issue 34).
    pub fn words(&self, grid: GridKind) -> String {
        match self {
            MeleeCard::Move(MoveStep::To(d)) => format!("MOVE 1\" {}", grid.dir_words(*d)),
            MeleeCard::Move(MoveStep::Face(d)) => {
                format!("MOVE 1\" (turn to face {})", grid.dir_words(*d))
            }
            MeleeCard::Horse(HorseCard::Wheel { facing }) => {
                format!("WHEEL to face {}", grid.dir_words(*facing))
            }
            MeleeCard::Horse(HorseCard::Turn { facing }) => {
                format!("TURN to face {}", grid.dir_words(*facing))
            }
            c => c.to_string(),
        }
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
            MeleeCard::Horse(HorseCard::Turn { facing }) => write!(f, "TURN to {}", facing.0),
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
    /// The figure has nothing it may play: its remaining blows are lost (D7). Written only
    /// when so, and read back (a faced play sent to a client, issue 30).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub forfeit: bool,
}

/// Whether a play holds a DODGE, whose way stays face down until the guesses are in (D7).
pub fn has_dodge(melee: &[MeleeCard]) -> bool {
    melee.iter().any(|m| matches!(m, MeleeCard::Dodge(_)))
}

impl Choice {
    /// No TAC card and no MELEE card but PASSIVE SHIELD PARRY: "standing quietly" (D7).
    pub fn is_passive(&self) -> bool {
        self.tac.is_none()
            && self
                .melee
                .iter()
                .all(|m| matches!(m, MeleeCard::PassiveShieldParry))
    }

    /// Each card of the play as it is faced (D9), TAC first: `CLOSE at levy`,
    /// `DELIVER BLOW → levy`, `MOVE 1" north-east`; a play of no card is `PASSIVE SHIELD
    /// PARRY`, "standing quietly".
    pub fn faced_words(&self, grid: GridKind) -> Vec<String> {
        let mut out = Vec::with_capacity(1 + self.melee.len());
        if let Some(t) = self.tac {
            out.push(match &self.tac_target {
                Some(x) => format!("{} at {x}", t.name()),
                None => t.name().to_string(),
            });
        }
        out.extend(self.melee.iter().map(|m| m.words(grid)));
        if out.is_empty() {
            out.push("PASSIVE SHIELD PARRY".into());
        }
        out
    }
}

/// The defensive cards a figure shows this round (its methods are the attack's business,
/// `attack::Guard`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Guard {
    /// WEAPON PARRY.
    pub parry: bool,
    /// DESPERATE DEFENSE.
    pub desperate: bool,
    /// ACTIVE SHIELD PARRY.
    pub asp: bool,
    /// PASSIVE SHIELD PARRY (or nothing at all played).
    pub psp: bool,
    /// DODGE.
    pub dodge: Option<DodgeDir>,
    /// The automatic dodge of a dog, wolf or cat not charging (§6 DODGE): its dodge bonus
    /// with no card, no guess, no move and no counter-blow.
    pub auto_dodge: bool,
}
