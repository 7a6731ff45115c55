// Original file: ../../../proto/mizerka/v1/referee.proto

import type { Event as _mizerka_v1_Event, Event__Output as _mizerka_v1_Event__Output } from '../../mizerka/v1/Event';

/**
 * Events, in the order they happened.
 */
export interface EventBatch {
  /**
   * At least one event.
   */
  'events'?: (_mizerka_v1_Event)[];
}

/**
 * Events, in the order they happened.
 */
export interface EventBatch__Output {
  /**
   * At least one event.
   */
  'events': (_mizerka_v1_Event__Output)[];
}
