//! The house combat tables (`data/combat.ron`, embedded) and the seed's own percentages.
//!
//! Destrier resolves blows with the Tactical Maneuver Matrix and the combat matrices of C&S,
//! which we do not have, so Warhorse defines its own tables in data (brief §6) and documents
//! every number in `docs/rules.md`. The percentages the seed does give are constants below,
//! each with the tag of the rule it comes from, so a test can check every one.
//!
//! Why one long file: it is data — every house table row and every percentage the seed gives,
//! each with its tag — and reads best as one list.

use crate::rules::gait::Gait;
use crate::rules::ruleset::Encumbrance;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

use super::deck::TacCard;

/// The percentages seed 003 gives, by the card or rule they belong to.
pub mod seed {
    /// WEAPON PARRY: a parried blow gives the parrier a counter-blow on 1–50 (§6).
    pub const PARRY_COUNTER: u32 = 50;
    /// DODGE: a dodger still in contact whose attacker guessed wrong counters on 1–25 (§6).
    pub const DODGE_COUNTER: u32 = 25;
    /// WEAPON PARRY: an H blow past an L parrying weapon breaks it on 1–10 (§6).
    pub const PARRY_WEAPON_BREAK: u32 = 10;
    /// WEAPON PARRY: any blow past a weapon parry disarms instead of wounding on 1–10 (§6).
    pub const PARRY_DISARM: u32 = 10;
    /// ACTIVE SHIELD PARRY: an H or LH blow past it shatters a small shield on 1–15 (§6).
    pub const SHIELD_BREAK_SMALL: u32 = 15;
    /// ACTIVE SHIELD PARRY: … a large shield on 1–5 (§6).
    pub const SHIELD_BREAK_LARGE: u32 = 5;
    /// PASSIVE SHIELD PARRY: every shield's basic defence, shield side only (§6, D12).
    pub const PASSIVE_SHIELD: i32 = 10;
    /// DESPERATE DEFENSE: attacks through the front are −25% (§6).
    pub const DESPERATE: i32 = 25;
    /// FEROCITY: chance of going berserk (§6).
    pub const BERSERK: u32 = 25;
    /// FEROCITY: … for a Nordic Berserk (§6).
    pub const BERSERK_NORDIC: u32 = 75;
    /// Berserk: +25% to hit (§6).
    pub const BERSERK_HIT: i32 = 25;
    /// Berserk: +10% to cause a critical hit (§6).
    pub const BERSERK_CRIT: i32 = 10;
    /// Berserk: +10% to cause a weapon bash (§6).
    pub const BERSERK_BASH: i32 = 10;
    /// Berserk: two extra blows for the duration of the melee (§6).
    pub const BERSERK_BLOWS: u8 = 2;
    /// Berserk: foreswearing defence, +10% easier to hit (§6).
    pub const BERSERK_EXPOSED: i32 = 10;
    /// Berserk calms when a d100 is at or under 20 + IQ + Wisdom, rolled each turn without
    /// enemies (§6).
    pub const BERSERK_CALM: u32 = 20;
    /// A friend who tries to calm a berserk is turned on with 50% less the berserk's IQ and
    /// Wisdom (§6 FEROCITY).
    pub const BERSERK_TURN_ON: i32 = 50;
    /// … "reduced by 20%" when the one calming him is his Lady (or her Man) (§6 FEROCITY).
    pub const BELOVED_CALMING: i32 = 20;
    /// A calmed berserk below this share of his body points falls into a stupor (§6).
    pub const STUPOR_BELOW_PERCENT: i32 = 50;
    /// … and has a quarter of his capabilities (§6).
    pub const STUPOR_SHARE: (u32, u32) = (1, 4);
    /// GREAT BLOW: +10% to hit, +10% critical, +10% weapon bash (§6).
    pub const GREAT_BLOW: i32 = 10;
    /// DODGE: a correct guess with an attack card gives +35% to a weapon bash (§6).
    pub const DODGE_GUESSED_BASH: i32 = 35;
    /// DODGE penalty in armour class 0 or 1 (§6).
    pub const DODGE_LIGHT_ARMOUR: i32 = 10;
    /// DODGE penalty when partly encumbered (§6).
    pub const DODGE_PARTIAL: i32 = 10;
    /// DODGE penalty when fully encumbered (§6).
    pub const DODGE_FULL: i32 = 25;
    /// PULL RIDER FROM SADDLE: basic chance (§6).
    pub const PULL_RIDER: i32 = 20;
    /// PULL RIDER FROM SADDLE: a cat's bonus (§6).
    pub const PULL_RIDER_CAT: i32 = 10;
    /// RESTRAINT: an opening on a body bash or a missed SHIELD BASH on 1–25 (§6).
    pub const RESTRAINT_OPENING: u32 = 25;
    /// RESTRAINT: success on 50% … (§6)
    pub const RESTRAINT: i32 = 50;
    /// … ±3% per Strength point of difference, in the stronger's favour (§6).
    pub const RESTRAINT_PER_STR: i32 = 3;
    /// TOSS: the enemy is knocked flat on 50% … (§6)
    pub const TOSS: i32 = 50;
    /// … ±5% per 100 Dr. of weight difference (our reading: 100 lb) (§6).
    pub const TOSS_PER_100_LB: i32 = 5;
    /// TOSS: a successful toss takes the tosser down too on 1–20 (§6).
    pub const TOSS_SELF: u32 = 20;
    /// BREAK FREE: 25% … (§6)
    pub const BREAK_FREE: i32 = 25;
    /// … ±1% per 10 Dr. (lb) of weight difference … (§6)
    pub const BREAK_FREE_PER_10_LB: i32 = 1;
    /// … and ±2% per point of superhuman Strength difference (§6).
    pub const BREAK_FREE_PER_STR: i32 = 2;
    /// Knocked down: stand up on 1–4 on a d6 (§6 TOSS).
    pub const STAND_UP_D6: u32 = 4;
    /// KICK from the saddle: a miss unseats the kicker on 10% … (§6)
    pub const KICK_FALL: i32 = 10;
    /// … less 1% per 2 points of Dexterity (§6).
    pub const KICK_FALL_DEX_PER: i32 = 2;
    /// KICK: a kicker struck in the same round is bashed on 20% less his Dexterity when it is
    /// 10 or more (§6).
    pub const KICK_STRUCK_BASH: i32 = 20;
    /// WHEEL: a man-sized figure in contact is knocked down and stunned on 1–50 (§6).
    pub const WHEEL_KNOCK: u32 = 50;
    /// WHEEL: a creature of equal weight up to 1½ times the horse's stumbles on 1–30 (§6).
    pub const WHEEL_STUMBLE_HEAVY: u32 = 30;
    /// WHEEL: a lighter creature stumbles on 1–50 (§6).
    pub const WHEEL_STUMBLE_LIGHT: u32 = 50;
    /// D11: a rider striking through the horse's head end, without lance or overhand spear.
    pub const HEAD_END: i32 = -20;
    /// D12: attacks on the rear are +25% …
    pub const REAR_ATTACK: i32 = 25;
    /// … and the defender's reply −25%.
    pub const REAR_REPLY: i32 = -25;
    /// D8: joining in the TAC phase needs contact within a move of 2"…
    pub const JOIN_TAC: i32 = 2;
    /// … and 3" in the melee rounds.
    pub const JOIN_MELEE: i32 = 3;
    /// D7: at most six PASSIVE SHIELD PARRY in a row while blows remain.
    pub const PSP_IN_A_ROW: u8 = 6;
    /// §6 CHARGE and RETREAT in the melee rounds: 3" for foot.
    pub const MELEE_CHARGE: i32 = 3;
    /// §6 RUN AWAY in the melee rounds: the charge bonus plus 2".
    pub const RUN_AWAY_EXTRA: i32 = 2;
    /// C8 "Charge bonus" of a horse: its MOVE card plus 3".
    pub const HORSE_CHARGE_BONUS: i32 = 3;
    /// Figures over 10 ft tall reach as pole arms (C5) and may grapple riders from any side.
    pub const TALL_FEET: u32 = 10;
}

/// C7: a rider's hit penalty by his mount's speed, for weapons other than lance or flail (and
/// weapons 6 ft or longer). `charging`: a full charge, the mount at the gallop having ridden
/// a movement charge this turn (`cards::full_charge`).
pub fn rider_speed_penalty(gait: Gait, charging: bool) -> i32 {
    match gait {
        Gait::Canter => -10,
        Gait::Gallop if charging => -35,
        Gait::Gallop => -20,
        _ => 0,
    }
}

/// C8: the extra half-inches a horse's MOVE card gains at canter (+1/2"), gallop (+1 1/2")
/// and charge (+2"), in half-inches so the sum stays exact.
pub fn move_bonus_half_inches(gait: Gait, charging: bool) -> i32 {
    match gait {
        Gait::Canter => 1,
        Gait::Gallop if charging => 4,
        Gait::Gallop => 3,
        _ => 0,
    }
}

/// §6 DODGE: the dodge penalty for armour class 0–1 and for encumbrance.
pub fn dodge_penalty(armour: u8, enc: Encumbrance) -> i32 {
    let ac = if armour <= 1 {
        seed::DODGE_LIGHT_ARMOUR
    } else {
        0
    };
    ac + match enc {
        Encumbrance::None => 0,
        Encumbrance::Partial => seed::DODGE_PARTIAL,
        Encumbrance::Full => seed::DODGE_FULL,
    }
}

/// Weapon classes of C&S: Light, Light-Heavy and Heavy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum WeaponClass {
    /// L: daggers, bows, claws.
    Light,
    /// LH: swords, axes, spears.
    LightHeavy,
    /// H: pikes, lances, flails, crossbows.
    Heavy,
}

impl WeaponClass {
    /// The short name players know from C&S.
    pub fn short(self) -> &'static str {
        match self {
            WeaponClass::Light => "L",
            WeaponClass::LightHeavy => "LH",
            WeaponClass::Heavy => "H",
        }
    }
}

/// What a weapon is, for reach (D11), C7, parrying and missiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WeaponKind {
    /// Swords, daggers.
    Blade,
    /// Axes.
    Axe,
    /// Maces, hammers.
    Mace,
    /// Spears (may be used overhand from the saddle, D11).
    Spear,
    /// Pole arms: reach 1/2" (D11).
    PoleArm,
    /// Flails: reach as pole arms (D11), no C7 penalty.
    Flail,
    /// Pikes: reach 1" (D11).
    Pike,
    /// Lances: reach 1" (D11), no C7 penalty, no GREAT BLOW.
    Lance,
    /// Bows, crossbows, firearms: FIRE / RELOAD only.
    Missile,
    /// Hooves, claws, fists.
    Natural,
}

/// One weapon of the table.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponStats {
    /// L, LH or H.
    pub class: WeaponClass,
    /// Its kind.
    pub kind: WeaponKind,
    /// WEAPON PARRY bonus.
    pub parry: i32,
    /// 6 ft or longer (C7 exemption).
    #[serde(default)]
    pub long: bool,
    /// Missiles: shots per turn.
    #[serde(default)]
    pub shots: u8,
    /// Missiles: a RELOAD card is needed after each shot.
    #[serde(default)]
    pub reload: bool,
    /// Missiles: range in cells.
    #[serde(default)]
    pub range: i32,
}

impl WeaponStats {
    /// Reach in cells (D11: "pole arms and flails reach 1/2", pike and lance 1""): 1 =
    /// contact; pikes and lances strike at 2 (one 1" cell between). A 1/2" reach does not span
    /// an empty 1" cell, so pole arms and flails strike in contact, as other weapons do (they
    /// still outrank them in a charge's order of blows, C5).
    pub fn reach(&self) -> i32 {
        match self.kind {
            WeaponKind::Pike | WeaponKind::Lance => 2,
            _ => 1,
        }
    }

    /// True for missile weapons.
    pub fn is_missile(&self) -> bool {
        self.kind == WeaponKind::Missile
    }

    /// C7: lances, flails and weapons 6 ft or longer ride without the speed penalty.
    pub fn speed_exempt(&self) -> bool {
        matches!(self.kind, WeaponKind::Lance | WeaponKind::Flail) || self.long
    }
}

/// Damage: `dice` d6 plus `plus`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DamageDice {
    /// Number of d6.
    pub dice: u32,
    /// Added to the sum.
    pub plus: i32,
}

/// A hand-to-hand or horse attack: its hit row and its damage (`halve` makes each d6 a d3).
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandAttack {
    /// The hit row it uses.
    pub class: WeaponClass,
    /// Number of dice.
    pub dice: u32,
    /// Added to the sum.
    pub plus: i32,
    /// Each die is a d3 (a d6 halved, rounded up).
    pub halve: bool,
}

/// What a critical hit or a bash does to its victim beyond damage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BashResult {
    /// Staggered and retreats 5 feet: pushed back one cell if it is free, −10% next round.
    Staggered,
    /// To the knees: 1 blow to regain its feet.
    ToKnees,
    /// Knocked down: 1 blow and 1–4 on a d6 to stand up.
    KnockedDown,
    /// Knocked down and stunned.
    KnockedDownStunned,
}

/// A critical hit's extra effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CritEffect {
    /// Damage only.
    None,
    /// Stunned.
    Stunned,
    /// Knocked down.
    KnockedDown,
}

/// One line of the critical table.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CritLine {
    /// Damage multiplier.
    pub times: i32,
    /// Extra effect.
    pub effect: CritEffect,
}

/// The body bash rule.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyBash {
    /// Chance at equal weight.
    pub base: i32,
    /// Per 50 lb of weight difference.
    pub per_50_lb: i32,
}

/// Shield sizes (§6 shield breaks, ASP bonus).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ShieldSize {
    /// A small shield (buckler, target).
    Small,
    /// A large shield (kite, heater): may SHIELD BASH.
    Large,
}

/// One cell of the Tactical Maneuver Matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TmmCell(pub i32, pub i32, pub bool);

/// Who may target a spell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SpellTarget {
    /// The caster or a figure of its side.
    Friend,
    /// An enemy.
    Enemy,
}

/// A data-defined spell (issue 4).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spell {
    /// Shown to players.
    pub name: String,
    /// Casting level, counted against the MKL.
    pub level: u8,
    /// The ruleset condition (R1) it applies.
    pub condition: String,
    /// Friend or enemy.
    pub target: SpellTarget,
    /// Range in cells; 0 is touch (in contact).
    pub range: i32,
    /// Chance to take effect.
    pub chance: u32,
}

/// What sort of creature a figure is, for who may play which card.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    /// Men and humanoids: intelligent.
    #[default]
    Humanoid,
    /// Horses and other animals.
    Animal,
    /// Dogs, wolves, large cats: CLOSE at any time, free MOVE and DODGE.
    AgileBeast,
    /// Intelligent monsters.
    Monster,
    /// Unintelligent monsters: no KEEP DISTANCE, no STAND GROUND, no RETREAT.
    DullMonster,
}

/// The fighting tradition that decides GREAT BLOW (§6: Chivalry and Nordics only).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tradition {
    /// Everyone else.
    #[default]
    Common,
    /// Knights and their like.
    Chivalry,
    /// Northmen.
    Nordic,
}

/// Spell casting (§6 PREPARE SPELL).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Caster {
    /// Casts nothing.
    #[default]
    None,
    /// Must PREPARE SPELL before each CAST SPELL.
    Mage,
    /// Enchanters, Skalds and Bards: no PREPARE needed.
    Enchanter,
    /// A creature's innate power (the ghoul's touch): no PREPARE needed.
    Innate,
}

/// Hooved animals kick (§6 KICK): horses to the front and rear, mules all round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Hooves {
    /// No hooves.
    #[default]
    None,
    /// Kicks to the front and rear (D11).
    Horse,
    /// Kicks all round.
    Mule,
}

/// A figure's fighting profile: what the ruleset template does not say.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Profile {
    /// Strength (RESTRAINT, BREAK FREE).
    pub strength: u8,
    /// IQ (berserk calming).
    pub iq: u8,
    /// Wisdom (berserk calming).
    pub wisdom: u8,
    /// A trained fighter: FEROCITY, ACTIVE SHIELD PARRY; trained animals STAND GROUND.
    pub trained: bool,
    /// Chivalry and Nordics may GREAT BLOW.
    pub tradition: Tradition,
    /// A Nordic Berserk: 75% on FEROCITY and always FEROCITY once berserk.
    pub berserker: bool,
    /// Creature kind.
    pub kind: Kind,
    /// Size of its shield, when the template carries one.
    pub shield: ShieldSize,
    /// Personal parry bonus, added to the weapon's.
    pub parry: i32,
    /// DODGE bonus before armour and encumbrance penalties.
    pub dodge: i32,
    /// Personal hit bonus (also the PULL RIDER "Heavy weapon bonus", our reading).
    pub hit: i32,
    /// Hand-to-hand blows, when they differ from its weapon blows (§6 HAND-TO-HAND).
    pub hand_blows: Option<u8>,
    /// A second weapon it can DRAW.
    pub sidearm: Option<String>,
    /// Magick knowledge level: the cap on a turn's casting levels.
    pub mkl: u8,
    /// How it casts.
    pub caster: Caster,
    /// Spells it knows (keys of `spells`).
    pub spells: Vec<String>,
    /// Over 10 ft tall: reach as a pole arm, grapples riders from any side, kicks riders.
    pub tall: bool,
    /// Hooves.
    pub hooves: Hooves,
    /// Comes to the fight with its shield slung: DRAW WEAPON readies it (§6, four blows with
    /// the weapon drawn).
    pub shield_slung: bool,
}

impl Default for Profile {
    fn default() -> Profile {
        Profile {
            strength: 10,
            iq: 10,
            wisdom: 10,
            trained: false,
            tradition: Tradition::Common,
            berserker: false,
            kind: Kind::Humanoid,
            shield: ShieldSize::Large,
            parry: 0,
            dodge: 5,
            hit: 0,
            hand_blows: None,
            sidearm: None,
            mkl: 0,
            caster: Caster::None,
            spells: Vec::new(),
            tall: false,
            hooves: Hooves::None,
            shield_slung: false,
        }
    }
}

/// The whole of `data/combat.ron` (written `Combat( … )`).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename = "Combat", deny_unknown_fields)]
pub struct Tables {
    /// Chance to hit by weapon class against armour class 0–10.
    pub hit: BTreeMap<WeaponClass, Vec<i32>>,
    /// Hit chances are clamped to this range.
    pub hit_limits: HitLimits,
    /// Weapons by name.
    pub weapons: BTreeMap<String, WeaponStats>,
    /// Damage by weapon class.
    pub damage: BTreeMap<WeaponClass, DamageDice>,
    /// PUNCH.
    pub punch: HandAttack,
    /// KICK by a man.
    pub kick: HandAttack,
    /// KICK by a hooved animal.
    pub horse_kick: HandAttack,
    /// TRAMPLE PRONE FIGURE.
    pub trample: HandAttack,
    /// Critical chance before bonuses.
    pub critical_base: i32,
    /// 1d6 critical table.
    pub critical: Vec<CritLine>,
    /// Weapon bash chance by class.
    pub weapon_bash: BTreeMap<WeaponClass, i32>,
    /// 1d6 bash results.
    pub bash_results: Vec<BashResult>,
    /// Body bash chance.
    pub body_bash: BodyBash,
    /// SHIELD BASH chance.
    pub shield_bash: i32,
    /// ACTIVE SHIELD PARRY bonus by size.
    pub asp: BTreeMap<ShieldSize, i32>,
    /// To hit a prone figure.
    pub target_prone: i32,
    /// To hit a kneeling figure.
    pub target_kneeling: i32,
    /// To hit a stunned figure.
    pub target_stunned: i32,
    /// A kneeling attacker's own modifier.
    pub attacker_kneeling: i32,
    /// A staggered attacker's modifier for the next card round.
    pub attacker_staggered: i32,
    /// Card rounds a stun lasts.
    pub stunned_rounds: u8,
    /// Dead at or under minus this share of body points.
    pub dead_below_percent: i32,
    /// Dexterity lead that lets a figure MOVE away from contact.
    pub dex_disengage: u8,
    /// PULL RIDER modifier by the horse's speed.
    pub pull_rider_by_gait: BTreeMap<Gait, i32>,
    /// PULL RIDER modifier against a horse that WHEELs.
    pub pull_rider_wheel: i32,
    /// Chance of a body bash after a failed PULL RIDER.
    pub pull_rider_bash: u32,
    /// HAMSTRING HORSE base chance.
    pub hamstring: i32,
    /// HAMSTRING HORSE: pinned on a d6 at or under this.
    pub hamstring_pinned: u32,
    /// TRAMPLE chance to hit.
    pub trample_hit: i32,
    /// The MELEE MOVE card of each horse class, in cells.
    pub horse_move: BTreeMap<String, i32>,
    /// The Tactical Maneuver Matrix: attacker's card → defender's card → cell.
    pub tmm: BTreeMap<TacCard, BTreeMap<TacCard, TmmCell>>,
    /// Spells by key.
    pub spells: BTreeMap<String, Spell>,
    /// The profile of a template not listed.
    pub default_fighter: Profile,
    /// Profiles by template name.
    pub fighters: BTreeMap<String, Profile>,
    /// Mount profiles by horse class.
    pub mounts: BTreeMap<String, Profile>,
}

/// Lowest and highest hit chance.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HitLimits {
    /// Never below.
    pub min: i32,
    /// Never above.
    pub max: i32,
}

/// The embedded table file.
pub const COMBAT_RON: &str = include_str!("../../../data/combat.ron");

/// The combat tables, parsed once.
pub fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| parse(COMBAT_RON).expect("data/combat.ron is checked by the tests"))
}

/// Parses and checks a combat table file.
pub fn parse(src: &str) -> Result<Tables, String> {
    let t: Tables = ron::Options::default()
        .from_str(src)
        .map_err(|e| format!("combat.ron:{}: {}", e.span.start, e.code))?;
    t.check()?;
    Ok(t)
}

impl Tables {
    /// Checks the shape of the tables: every row complete, every reference known.
    pub fn check(&self) -> Result<(), String> {
        for c in [
            WeaponClass::Light,
            WeaponClass::LightHeavy,
            WeaponClass::Heavy,
        ] {
            if self.hit.get(&c).is_none_or(|r| r.len() != 11) {
                return Err(format!("hit row {c:?} needs 11 entries (AC 0-10)"));
            }
            if !self.damage.contains_key(&c) || !self.weapon_bash.contains_key(&c) {
                return Err(format!("damage and weapon_bash need {c:?}"));
            }
        }
        if self.critical.len() != 6 || self.bash_results.len() != 6 {
            return Err("critical and bash_results are d6 tables of 6 lines".into());
        }
        for a in TacCard::ALL {
            for d in TacCard::ALL {
                if self.tmm.get(&a).and_then(|r| r.get(&d)).is_none() {
                    return Err(format!("tmm lacks {a:?} against {d:?}"));
                }
            }
        }
        for (k, p) in self.fighters.iter().chain(self.mounts.iter()) {
            for s in &p.spells {
                if !self.spells.contains_key(s) {
                    return Err(format!("{k} knows unknown spell {s}"));
                }
            }
            if let Some(w) = &p.sidearm
                && !self.weapons.contains_key(w)
            {
                return Err(format!("{k}'s sidearm {w} is not a weapon"));
            }
        }
        Ok(())
    }

    /// The stats of a weapon; an unknown name fights as bare hands (`none`).
    pub fn weapon(&self, name: &str) -> &WeaponStats {
        self.weapons
            .get(name)
            .or_else(|| self.weapons.get("none"))
            .expect("combat.ron has a `none` weapon")
    }

    /// The base chance to hit armour class `ac` with a weapon of class `c`.
    pub fn base_hit(&self, c: WeaponClass, ac: u8) -> i32 {
        self.hit
            .get(&c)
            .and_then(|r| r.get(ac.min(10) as usize))
            .copied()
            .unwrap_or(50)
    }

    /// The TMM cell for the attacker's and defender's TAC cards (none = STAND GROUND).
    pub fn tmm(&self, att: Option<TacCard>, def: Option<TacCard>) -> TmmCell {
        let a = att.unwrap_or(TacCard::StandGround);
        let d = def.unwrap_or(TacCard::StandGround);
        self.tmm
            .get(&a)
            .and_then(|r| r.get(&d))
            .copied()
            .unwrap_or(TmmCell(0, 0, false))
    }

    /// The profile of a template.
    pub fn fighter(&self, template: &str) -> Profile {
        self.fighters
            .get(template)
            .cloned()
            .unwrap_or_else(|| self.default_fighter.clone())
    }

    /// The profile of a mount of `class`.
    pub fn mount(&self, class: &str) -> Profile {
        self.mounts.get(class).cloned().unwrap_or(Profile {
            kind: Kind::Animal,
            trained: true,
            hooves: Hooves::Horse,
            ..Profile::default()
        })
    }

    /// The MELEE MOVE card of a horse class, in cells (a Great Horse's extra inch included).
    pub fn horse_move(&self, class: &str) -> i32 {
        self.horse_move.get(class).copied().unwrap_or(1)
    }
}

/// The spell targets a card names: the caster itself when `None`.
pub fn spell_target_ok(kind: SpellTarget, same_side: bool) -> bool {
    match kind {
        SpellTarget::Friend => same_side,
        SpellTarget::Enemy => !same_side,
    }
}
