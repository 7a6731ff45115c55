import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { Action as _mizerka_v1_Action, Action__Output as _mizerka_v1_Action__Output } from './mizerka/v1/Action';
import type { ActionError as _mizerka_v1_ActionError, ActionError__Output as _mizerka_v1_ActionError__Output } from './mizerka/v1/ActionError';
import type { AnnounceMajor as _mizerka_v1_AnnounceMajor, AnnounceMajor__Output as _mizerka_v1_AnnounceMajor__Output } from './mizerka/v1/AnnounceMajor';
import type { Announcement as _mizerka_v1_Announcement, Announcement__Output as _mizerka_v1_Announcement__Output } from './mizerka/v1/Announcement';
import type { BotMessage as _mizerka_v1_BotMessage, BotMessage__Output as _mizerka_v1_BotMessage__Output } from './mizerka/v1/BotMessage';
import type { CardPlayed as _mizerka_v1_CardPlayed, CardPlayed__Output as _mizerka_v1_CardPlayed__Output } from './mizerka/v1/CardPlayed';
import type { CardsExchanged as _mizerka_v1_CardsExchanged, CardsExchanged__Output as _mizerka_v1_CardsExchanged__Output } from './mizerka/v1/CardsExchanged';
import type { ChooseContract as _mizerka_v1_ChooseContract, ChooseContract__Output as _mizerka_v1_ChooseContract__Output } from './mizerka/v1/ChooseContract';
import type { Clock as _mizerka_v1_Clock, Clock__Output as _mizerka_v1_Clock__Output } from './mizerka/v1/Clock';
import type { ContractAnnounced as _mizerka_v1_ContractAnnounced, ContractAnnounced__Output as _mizerka_v1_ContractAnnounced__Output } from './mizerka/v1/ContractAnnounced';
import type { ContractInfo as _mizerka_v1_ContractInfo, ContractInfo__Output as _mizerka_v1_ContractInfo__Output } from './mizerka/v1/ContractInfo';
import type { ContractSettled as _mizerka_v1_ContractSettled, ContractSettled__Output as _mizerka_v1_ContractSettled__Output } from './mizerka/v1/ContractSettled';
import type { DealEnded as _mizerka_v1_DealEnded, DealEnded__Output as _mizerka_v1_DealEnded__Output } from './mizerka/v1/DealEnded';
import type { DealRecord as _mizerka_v1_DealRecord, DealRecord__Output as _mizerka_v1_DealRecord__Output } from './mizerka/v1/DealRecord';
import type { DealResult as _mizerka_v1_DealResult, DealResult__Output as _mizerka_v1_DealResult__Output } from './mizerka/v1/DealResult';
import type { DealStarted as _mizerka_v1_DealStarted, DealStarted__Output as _mizerka_v1_DealStarted__Output } from './mizerka/v1/DealStarted';
import type { DecisionRequest as _mizerka_v1_DecisionRequest, DecisionRequest__Output as _mizerka_v1_DecisionRequest__Output } from './mizerka/v1/DecisionRequest';
import type { DefaultApplied as _mizerka_v1_DefaultApplied, DefaultApplied__Output as _mizerka_v1_DefaultApplied__Output } from './mizerka/v1/DefaultApplied';
import type { Event as _mizerka_v1_Event, Event__Output as _mizerka_v1_Event__Output } from './mizerka/v1/Event';
import type { EventBatch as _mizerka_v1_EventBatch, EventBatch__Output as _mizerka_v1_EventBatch__Output } from './mizerka/v1/EventBatch';
import type { ExchangeCards as _mizerka_v1_ExchangeCards, ExchangeCards__Output as _mizerka_v1_ExchangeCards__Output } from './mizerka/v1/ExchangeCards';
import type { ExchangeOptions as _mizerka_v1_ExchangeOptions, ExchangeOptions__Output as _mizerka_v1_ExchangeOptions__Output } from './mizerka/v1/ExchangeOptions';
import type { ExchangeRecord as _mizerka_v1_ExchangeRecord, ExchangeRecord__Output as _mizerka_v1_ExchangeRecord__Output } from './mizerka/v1/ExchangeRecord';
import type { GameEnd as _mizerka_v1_GameEnd, GameEnd__Output as _mizerka_v1_GameEnd__Output } from './mizerka/v1/GameEnd';
import type { GameStart as _mizerka_v1_GameStart, GameStart__Output as _mizerka_v1_GameStart__Output } from './mizerka/v1/GameStart';
import type { Hello as _mizerka_v1_Hello, Hello__Output as _mizerka_v1_Hello__Output } from './mizerka/v1/Hello';
import type { MajorAnnounced as _mizerka_v1_MajorAnnounced, MajorAnnounced__Output as _mizerka_v1_MajorAnnounced__Output } from './mizerka/v1/MajorAnnounced';
import type { PlayCard as _mizerka_v1_PlayCard, PlayCard__Output as _mizerka_v1_PlayCard__Output } from './mizerka/v1/PlayCard';
import type { PlayerState as _mizerka_v1_PlayerState, PlayerState__Output as _mizerka_v1_PlayerState__Output } from './mizerka/v1/PlayerState';
import type { RefereeClient as _mizerka_v1_RefereeClient, RefereeDefinition as _mizerka_v1_RefereeDefinition } from './mizerka/v1/Referee';
import type { RefereeMessage as _mizerka_v1_RefereeMessage, RefereeMessage__Output as _mizerka_v1_RefereeMessage__Output } from './mizerka/v1/RefereeMessage';
import type { Revoked as _mizerka_v1_Revoked, Revoked__Output as _mizerka_v1_Revoked__Output } from './mizerka/v1/Revoked';
import type { Ruleset as _mizerka_v1_Ruleset, Ruleset__Output as _mizerka_v1_Ruleset__Output } from './mizerka/v1/Ruleset';
import type { SeatCards as _mizerka_v1_SeatCards, SeatCards__Output as _mizerka_v1_SeatCards__Output } from './mizerka/v1/SeatCards';
import type { SeatRecord as _mizerka_v1_SeatRecord, SeatRecord__Output as _mizerka_v1_SeatRecord__Output } from './mizerka/v1/SeatRecord';
import type { SeatView as _mizerka_v1_SeatView, SeatView__Output as _mizerka_v1_SeatView__Output } from './mizerka/v1/SeatView';
import type { StrikeCounted as _mizerka_v1_StrikeCounted, StrikeCounted__Output as _mizerka_v1_StrikeCounted__Output } from './mizerka/v1/StrikeCounted';
import type { Trick as _mizerka_v1_Trick, Trick__Output as _mizerka_v1_Trick__Output } from './mizerka/v1/Trick';
import type { TrickPlay as _mizerka_v1_TrickPlay, TrickPlay__Output as _mizerka_v1_TrickPlay__Output } from './mizerka/v1/TrickPlay';
import type { TrickWon as _mizerka_v1_TrickWon, TrickWon__Output as _mizerka_v1_TrickWon__Output } from './mizerka/v1/TrickWon';
import type { WatchRequest as _mizerka_v1_WatchRequest, WatchRequest__Output as _mizerka_v1_WatchRequest__Output } from './mizerka/v1/WatchRequest';
import type { WatchUpdate as _mizerka_v1_WatchUpdate, WatchUpdate__Output as _mizerka_v1_WatchUpdate__Output } from './mizerka/v1/WatchUpdate';
import type { Welcome as _mizerka_v1_Welcome, Welcome__Output as _mizerka_v1_Welcome__Output } from './mizerka/v1/Welcome';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  mizerka: {
    v1: {
      Action: MessageTypeDefinition<_mizerka_v1_Action, _mizerka_v1_Action__Output>
      ActionError: MessageTypeDefinition<_mizerka_v1_ActionError, _mizerka_v1_ActionError__Output>
      ActionErrorCode: EnumTypeDefinition
      AnnounceMajor: MessageTypeDefinition<_mizerka_v1_AnnounceMajor, _mizerka_v1_AnnounceMajor__Output>
      Announcement: MessageTypeDefinition<_mizerka_v1_Announcement, _mizerka_v1_Announcement__Output>
      AnnouncementKind: EnumTypeDefinition
      Audience: EnumTypeDefinition
      BotMessage: MessageTypeDefinition<_mizerka_v1_BotMessage, _mizerka_v1_BotMessage__Output>
      CardPlayed: MessageTypeDefinition<_mizerka_v1_CardPlayed, _mizerka_v1_CardPlayed__Output>
      CardsExchanged: MessageTypeDefinition<_mizerka_v1_CardsExchanged, _mizerka_v1_CardsExchanged__Output>
      ChooseContract: MessageTypeDefinition<_mizerka_v1_ChooseContract, _mizerka_v1_ChooseContract__Output>
      Clock: MessageTypeDefinition<_mizerka_v1_Clock, _mizerka_v1_Clock__Output>
      ContractAnnounced: MessageTypeDefinition<_mizerka_v1_ContractAnnounced, _mizerka_v1_ContractAnnounced__Output>
      ContractInfo: MessageTypeDefinition<_mizerka_v1_ContractInfo, _mizerka_v1_ContractInfo__Output>
      ContractSettled: MessageTypeDefinition<_mizerka_v1_ContractSettled, _mizerka_v1_ContractSettled__Output>
      DealEnded: MessageTypeDefinition<_mizerka_v1_DealEnded, _mizerka_v1_DealEnded__Output>
      DealRecord: MessageTypeDefinition<_mizerka_v1_DealRecord, _mizerka_v1_DealRecord__Output>
      DealResult: MessageTypeDefinition<_mizerka_v1_DealResult, _mizerka_v1_DealResult__Output>
      DealStarted: MessageTypeDefinition<_mizerka_v1_DealStarted, _mizerka_v1_DealStarted__Output>
      DecisionKind: EnumTypeDefinition
      DecisionRequest: MessageTypeDefinition<_mizerka_v1_DecisionRequest, _mizerka_v1_DecisionRequest__Output>
      DeclarerMode: EnumTypeDefinition
      DefaultApplied: MessageTypeDefinition<_mizerka_v1_DefaultApplied, _mizerka_v1_DefaultApplied__Output>
      DefaultReason: EnumTypeDefinition
      Event: MessageTypeDefinition<_mizerka_v1_Event, _mizerka_v1_Event__Output>
      EventBatch: MessageTypeDefinition<_mizerka_v1_EventBatch, _mizerka_v1_EventBatch__Output>
      ExchangeCards: MessageTypeDefinition<_mizerka_v1_ExchangeCards, _mizerka_v1_ExchangeCards__Output>
      ExchangeKind: EnumTypeDefinition
      ExchangeOptions: MessageTypeDefinition<_mizerka_v1_ExchangeOptions, _mizerka_v1_ExchangeOptions__Output>
      ExchangeRecord: MessageTypeDefinition<_mizerka_v1_ExchangeRecord, _mizerka_v1_ExchangeRecord__Output>
      GameEnd: MessageTypeDefinition<_mizerka_v1_GameEnd, _mizerka_v1_GameEnd__Output>
      GameStart: MessageTypeDefinition<_mizerka_v1_GameStart, _mizerka_v1_GameStart__Output>
      Hello: MessageTypeDefinition<_mizerka_v1_Hello, _mizerka_v1_Hello__Output>
      MajorAnnounced: MessageTypeDefinition<_mizerka_v1_MajorAnnounced, _mizerka_v1_MajorAnnounced__Output>
      MisereQuotas: EnumTypeDefinition
      Phase: EnumTypeDefinition
      PlayCard: MessageTypeDefinition<_mizerka_v1_PlayCard, _mizerka_v1_PlayCard__Output>
      PlayerState: MessageTypeDefinition<_mizerka_v1_PlayerState, _mizerka_v1_PlayerState__Output>
      /**
       * The referee: bots play through Play; anyone may watch a match through Watch.
       */
      Referee: SubtypeConstructor<typeof grpc.Client, _mizerka_v1_RefereeClient> & { service: _mizerka_v1_RefereeDefinition }
      RefereeMessage: MessageTypeDefinition<_mizerka_v1_RefereeMessage, _mizerka_v1_RefereeMessage__Output>
      RevokeMode: EnumTypeDefinition
      Revoked: MessageTypeDefinition<_mizerka_v1_Revoked, _mizerka_v1_Revoked__Output>
      Ruleset: MessageTypeDefinition<_mizerka_v1_Ruleset, _mizerka_v1_Ruleset__Output>
      SeatCards: MessageTypeDefinition<_mizerka_v1_SeatCards, _mizerka_v1_SeatCards__Output>
      SeatRecord: MessageTypeDefinition<_mizerka_v1_SeatRecord, _mizerka_v1_SeatRecord__Output>
      SeatView: MessageTypeDefinition<_mizerka_v1_SeatView, _mizerka_v1_SeatView__Output>
      StrikeCounted: MessageTypeDefinition<_mizerka_v1_StrikeCounted, _mizerka_v1_StrikeCounted__Output>
      TiebreakMode: EnumTypeDefinition
      Trick: MessageTypeDefinition<_mizerka_v1_Trick, _mizerka_v1_Trick__Output>
      TrickPlay: MessageTypeDefinition<_mizerka_v1_TrickPlay, _mizerka_v1_TrickPlay__Output>
      TrickWon: MessageTypeDefinition<_mizerka_v1_TrickWon, _mizerka_v1_TrickWon__Output>
      WatchRequest: MessageTypeDefinition<_mizerka_v1_WatchRequest, _mizerka_v1_WatchRequest__Output>
      WatchUpdate: MessageTypeDefinition<_mizerka_v1_WatchUpdate, _mizerka_v1_WatchUpdate__Output>
      Welcome: MessageTypeDefinition<_mizerka_v1_Welcome, _mizerka_v1_Welcome__Output>
    }
  }
}

