// Original file: ../../../proto/mizerka/v1/arena.proto


/**
 * What was published.
 */
export interface PublishMatchesResponse {
  /**
   * How many matches were sealed and are not any more (0 when all were public already).
   */
  'published'?: (number);
}

/**
 * What was published.
 */
export interface PublishMatchesResponse__Output {
  /**
   * How many matches were sealed and are not any more (0 when all were public already).
   */
  'published': (number);
}
