// Original file: ../../../proto/mizerka/v1/events.proto


/**
 * A major announcement or pass (manni-major, docs/rules.md section 6).
 */
export interface MajorAnnounced {
  /**
   * Who announced or passed.
   */
  'seat'?: (number);
  /**
   * The contract announced major, or "" for a pass.
   */
  'contract'?: (string);
}

/**
 * A major announcement or pass (manni-major, docs/rules.md section 6).
 */
export interface MajorAnnounced__Output {
  /**
   * Who announced or passed.
   */
  'seat': (number);
  /**
   * The contract announced major, or "" for a pass.
   */
  'contract': (string);
}
