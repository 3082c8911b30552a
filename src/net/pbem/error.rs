//! Why a turn file is refused, or an order of a game by email cannot be given yet: each in
//! words that say what happened and what to do. A refused file changes nothing.

use std::fmt;

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PbemError {
    /// Not JSON, or not a turn file.
    NotATurnFile(String),
    /// Written by another version of Warhorse.
    OtherVersion {
        /// The file's.
        theirs: String,
        /// This build's.
        ours: String,
    },
    /// Its hash does not match what is in it: it was edited after it was written.
    Altered {
        /// Its number.
        seq: u32,
    },
    /// A file of another game.
    OtherGame,
    /// A file read before.
    Reused {
        /// Its number.
        seq: u32,
    },
    /// A file whose number was read before with other contents.
    Rewritten {
        /// Its number.
        seq: u32,
    },
    /// A file after a missing one, or one that is not the next.
    OutOfOrder {
        /// The number expected.
        expected: u32,
        /// The number found.
        found: u32,
    },
    /// A file that does not follow the one before it.
    BrokenChain {
        /// Its number.
        seq: u32,
    },
    /// A file written by this player, or for the other player to read.
    NotFromOpponent {
        /// Its number.
        seq: u32,
    },
    /// An opened order that does not match its commitment.
    ChangedCommitment {
        /// The order's number in the record (from 1).
        order_no: usize,
    },
    /// An opening of an order the sender never sealed, or opened before.
    NothingSealed {
        /// The order's number in the record (from 1).
        order_no: usize,
    },
    /// A dice value that does not match its commitment.
    DiceChanged {
        /// The turn.
        turn: u32,
    },
    /// A dice commitment or value given twice.
    DiceTwice {
        /// The turn.
        turn: u32,
    },
    /// The rules refuse an order of the file.
    OrderRefused {
        /// Its number in the record (from 1).
        order_no: usize,
        /// The order.
        order: String,
        /// The rules' words.
        why: String,
    },
    /// An order for a side its sender does not play.
    NotTheirSide {
        /// Its number in the record (from 1).
        order_no: usize,
        /// The order.
        order: String,
    },
    /// The two games differ after the same orders.
    StatesDiffer {
        /// How many orders both have played.
        after: usize,
    },
    /// The first file of a game cannot be played: no game in it, a level that does not read.
    BadStart(String),
    /// This player's order: not its turn to write, or the game does not wait for it.
    NotYourTurn(String),
    /// The rules refuse this player's order.
    Refused(String),
    /// The order begins a turn whose dice are not agreed yet.
    DiceNotAgreed {
        /// The turn.
        turn: u32,
    },
    /// A file or a state file could not be read or written.
    Io(String),
}

impl fmt::Display for PbemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PbemError::*;
        match self {
            NotATurnFile(e) => write!(f, "this is not a Warhorse turn file ({e})"),
            OtherVersion { theirs, ours } => write!(
                f,
                "the file was written by {theirs}; this is {ours}. Both players need the same \
                 version: update the older one and read the file again"
            ),
            Altered { seq } => write!(
                f,
                "turn file {seq} was altered after it was written (its hash does not match what \
                 is in it): ask for the file as it was sent"
            ),
            OtherGame => write!(
                f,
                "this turn file belongs to another game: check that it is the file for this one"
            ),
            Reused { seq } => write!(
                f,
                "turn file {seq} was read before: a file is played once. Wait for the next file"
            ),
            Rewritten { seq } => write!(
                f,
                "turn file {seq} was read before with other contents: a file cannot be changed \
                 once it is sent"
            ),
            OutOfOrder { expected, found } => write!(
                f,
                "this is turn file {found}, but file {expected} comes next: read the files in \
                 order (is file {expected} missing?)"
            ),
            BrokenChain { seq } => write!(
                f,
                "turn file {seq} does not follow the file before it (its chain of hashes is \
                 broken): it was written for another history of this game"
            ),
            NotFromOpponent { seq } => write!(
                f,
                "turn file {seq} is yours to write, not the other player's: send your answer first"
            ),
            ChangedCommitment { order_no } => write!(
                f,
                "order {order_no} was made face down and is now shown as another order (it does \
                 not match its commitment): the file is refused"
            ),
            NothingSealed { order_no } => write!(
                f,
                "the file opens order {order_no}, which its sender did not make face down or \
                 opened before"
            ),
            DiceChanged { turn } => write!(
                f,
                "the dice value for turn {turn} does not match the commitment made for it: the \
                 file is refused"
            ),
            DiceTwice { turn } => write!(
                f,
                "the dice of turn {turn} are spoken of twice by the same player: the file is \
                 refused"
            ),
            OrderRefused {
                order_no,
                order,
                why,
            } => write!(
                f,
                "order {order_no} ({order}) is refused by the rules: {why}. The file is refused"
            ),
            NotTheirSide { order_no, order } => write!(
                f,
                "order {order_no} ({order}) is for a side its sender does not play: the file is \
                 refused"
            ),
            StatesDiffer { after } => write!(
                f,
                "after order {after} the two games differ: the builds or the files disagree"
            ),
            BadStart(e) => write!(f, "this game cannot begin: {e}"),
            NotYourTurn(e) => write!(f, "{e}"),
            Refused(e) => write!(f, "refused: {e}"),
            DiceNotAgreed { turn } => write!(
                f,
                "turn {turn}'s dice are not agreed yet: write your turn file now; the other \
                 player's answer brings them"
            ),
            Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PbemError {}
