import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { ListValue as _google_protobuf_ListValue, ListValue__Output as _google_protobuf_ListValue__Output } from './google/protobuf/ListValue';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from './google/protobuf/Struct';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from './google/protobuf/Timestamp';
import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from './google/protobuf/Value';
import type { AbortMatchesRequest as _mizerka_v1_AbortMatchesRequest, AbortMatchesRequest__Output as _mizerka_v1_AbortMatchesRequest__Output } from './mizerka/v1/AbortMatchesRequest';
import type { AbortMatchesResponse as _mizerka_v1_AbortMatchesResponse, AbortMatchesResponse__Output as _mizerka_v1_AbortMatchesResponse__Output } from './mizerka/v1/AbortMatchesResponse';
import type { Action as _mizerka_v1_Action, Action__Output as _mizerka_v1_Action__Output } from './mizerka/v1/Action';
import type { AnnounceMajor as _mizerka_v1_AnnounceMajor, AnnounceMajor__Output as _mizerka_v1_AnnounceMajor__Output } from './mizerka/v1/AnnounceMajor';
import type { Announcement as _mizerka_v1_Announcement, Announcement__Output as _mizerka_v1_Announcement__Output } from './mizerka/v1/Announcement';
import type { ArenaClient as _mizerka_v1_ArenaClient, ArenaDefinition as _mizerka_v1_ArenaDefinition } from './mizerka/v1/Arena';
import type { ChooseContract as _mizerka_v1_ChooseContract, ChooseContract__Output as _mizerka_v1_ChooseContract__Output } from './mizerka/v1/ChooseContract';
import type { Clock as _mizerka_v1_Clock, Clock__Output as _mizerka_v1_Clock__Output } from './mizerka/v1/Clock';
import type { ContractInfo as _mizerka_v1_ContractInfo, ContractInfo__Output as _mizerka_v1_ContractInfo__Output } from './mizerka/v1/ContractInfo';
import type { CreateMatchRequest as _mizerka_v1_CreateMatchRequest, CreateMatchRequest__Output as _mizerka_v1_CreateMatchRequest__Output } from './mizerka/v1/CreateMatchRequest';
import type { CreateMatchResponse as _mizerka_v1_CreateMatchResponse, CreateMatchResponse__Output as _mizerka_v1_CreateMatchResponse__Output } from './mizerka/v1/CreateMatchResponse';
import type { DealRecord as _mizerka_v1_DealRecord, DealRecord__Output as _mizerka_v1_DealRecord__Output } from './mizerka/v1/DealRecord';
import type { DealResult as _mizerka_v1_DealResult, DealResult__Output as _mizerka_v1_DealResult__Output } from './mizerka/v1/DealResult';
import type { ExchangeCards as _mizerka_v1_ExchangeCards, ExchangeCards__Output as _mizerka_v1_ExchangeCards__Output } from './mizerka/v1/ExchangeCards';
import type { ExchangeRecord as _mizerka_v1_ExchangeRecord, ExchangeRecord__Output as _mizerka_v1_ExchangeRecord__Output } from './mizerka/v1/ExchangeRecord';
import type { GameSummary as _mizerka_v1_GameSummary, GameSummary__Output as _mizerka_v1_GameSummary__Output } from './mizerka/v1/GameSummary';
import type { GetBotRequest as _mizerka_v1_GetBotRequest, GetBotRequest__Output as _mizerka_v1_GetBotRequest__Output } from './mizerka/v1/GetBotRequest';
import type { GetBotResponse as _mizerka_v1_GetBotResponse, GetBotResponse__Output as _mizerka_v1_GetBotResponse__Output } from './mizerka/v1/GetBotResponse';
import type { GetMatchRequest as _mizerka_v1_GetMatchRequest, GetMatchRequest__Output as _mizerka_v1_GetMatchRequest__Output } from './mizerka/v1/GetMatchRequest';
import type { GetMatchResponse as _mizerka_v1_GetMatchResponse, GetMatchResponse__Output as _mizerka_v1_GetMatchResponse__Output } from './mizerka/v1/GetMatchResponse';
import type { ListMatchesRequest as _mizerka_v1_ListMatchesRequest, ListMatchesRequest__Output as _mizerka_v1_ListMatchesRequest__Output } from './mizerka/v1/ListMatchesRequest';
import type { ListMatchesResponse as _mizerka_v1_ListMatchesResponse, ListMatchesResponse__Output as _mizerka_v1_ListMatchesResponse__Output } from './mizerka/v1/ListMatchesResponse';
import type { Match as _mizerka_v1_Match, Match__Output as _mizerka_v1_Match__Output } from './mizerka/v1/Match';
import type { MatchSeat as _mizerka_v1_MatchSeat, MatchSeat__Output as _mizerka_v1_MatchSeat__Output } from './mizerka/v1/MatchSeat';
import type { PlayCard as _mizerka_v1_PlayCard, PlayCard__Output as _mizerka_v1_PlayCard__Output } from './mizerka/v1/PlayCard';
import type { PlayerState as _mizerka_v1_PlayerState, PlayerState__Output as _mizerka_v1_PlayerState__Output } from './mizerka/v1/PlayerState';
import type { PublishMatchesRequest as _mizerka_v1_PublishMatchesRequest, PublishMatchesRequest__Output as _mizerka_v1_PublishMatchesRequest__Output } from './mizerka/v1/PublishMatchesRequest';
import type { PublishMatchesResponse as _mizerka_v1_PublishMatchesResponse, PublishMatchesResponse__Output as _mizerka_v1_PublishMatchesResponse__Output } from './mizerka/v1/PublishMatchesResponse';
import type { RegisterBotRequest as _mizerka_v1_RegisterBotRequest, RegisterBotRequest__Output as _mizerka_v1_RegisterBotRequest__Output } from './mizerka/v1/RegisterBotRequest';
import type { RegisterBotResponse as _mizerka_v1_RegisterBotResponse, RegisterBotResponse__Output as _mizerka_v1_RegisterBotResponse__Output } from './mizerka/v1/RegisterBotResponse';
import type { Ruleset as _mizerka_v1_Ruleset, Ruleset__Output as _mizerka_v1_Ruleset__Output } from './mizerka/v1/Ruleset';
import type { SeatCards as _mizerka_v1_SeatCards, SeatCards__Output as _mizerka_v1_SeatCards__Output } from './mizerka/v1/SeatCards';
import type { SeatRecord as _mizerka_v1_SeatRecord, SeatRecord__Output as _mizerka_v1_SeatRecord__Output } from './mizerka/v1/SeatRecord';
import type { SeatView as _mizerka_v1_SeatView, SeatView__Output as _mizerka_v1_SeatView__Output } from './mizerka/v1/SeatView';
import type { Trick as _mizerka_v1_Trick, Trick__Output as _mizerka_v1_Trick__Output } from './mizerka/v1/Trick';
import type { TrickPlay as _mizerka_v1_TrickPlay, TrickPlay__Output as _mizerka_v1_TrickPlay__Output } from './mizerka/v1/TrickPlay';
import type { WaitMatchRequest as _mizerka_v1_WaitMatchRequest, WaitMatchRequest__Output as _mizerka_v1_WaitMatchRequest__Output } from './mizerka/v1/WaitMatchRequest';
import type { WaitMatchResponse as _mizerka_v1_WaitMatchResponse, WaitMatchResponse__Output as _mizerka_v1_WaitMatchResponse__Output } from './mizerka/v1/WaitMatchResponse';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  google: {
    protobuf: {
      ListValue: MessageTypeDefinition<_google_protobuf_ListValue, _google_protobuf_ListValue__Output>
      NullValue: EnumTypeDefinition
      Struct: MessageTypeDefinition<_google_protobuf_Struct, _google_protobuf_Struct__Output>
      Timestamp: MessageTypeDefinition<_google_protobuf_Timestamp, _google_protobuf_Timestamp__Output>
      Value: MessageTypeDefinition<_google_protobuf_Value, _google_protobuf_Value__Output>
    }
  }
  mizerka: {
    v1: {
      AbortMatchesRequest: MessageTypeDefinition<_mizerka_v1_AbortMatchesRequest, _mizerka_v1_AbortMatchesRequest__Output>
      AbortMatchesResponse: MessageTypeDefinition<_mizerka_v1_AbortMatchesResponse, _mizerka_v1_AbortMatchesResponse__Output>
      Action: MessageTypeDefinition<_mizerka_v1_Action, _mizerka_v1_Action__Output>
      AnnounceMajor: MessageTypeDefinition<_mizerka_v1_AnnounceMajor, _mizerka_v1_AnnounceMajor__Output>
      Announcement: MessageTypeDefinition<_mizerka_v1_Announcement, _mizerka_v1_Announcement__Output>
      AnnouncementKind: EnumTypeDefinition
      /**
       * Administration: register bots, create matches, follow their progress.
       */
      Arena: SubtypeConstructor<typeof grpc.Client, _mizerka_v1_ArenaClient> & { service: _mizerka_v1_ArenaDefinition }
      Audience: EnumTypeDefinition
      ChooseContract: MessageTypeDefinition<_mizerka_v1_ChooseContract, _mizerka_v1_ChooseContract__Output>
      Clock: MessageTypeDefinition<_mizerka_v1_Clock, _mizerka_v1_Clock__Output>
      ContractInfo: MessageTypeDefinition<_mizerka_v1_ContractInfo, _mizerka_v1_ContractInfo__Output>
      CreateMatchRequest: MessageTypeDefinition<_mizerka_v1_CreateMatchRequest, _mizerka_v1_CreateMatchRequest__Output>
      CreateMatchResponse: MessageTypeDefinition<_mizerka_v1_CreateMatchResponse, _mizerka_v1_CreateMatchResponse__Output>
      DealRecord: MessageTypeDefinition<_mizerka_v1_DealRecord, _mizerka_v1_DealRecord__Output>
      DealResult: MessageTypeDefinition<_mizerka_v1_DealResult, _mizerka_v1_DealResult__Output>
      DeclarerMode: EnumTypeDefinition
      ExchangeCards: MessageTypeDefinition<_mizerka_v1_ExchangeCards, _mizerka_v1_ExchangeCards__Output>
      ExchangeKind: EnumTypeDefinition
      ExchangeRecord: MessageTypeDefinition<_mizerka_v1_ExchangeRecord, _mizerka_v1_ExchangeRecord__Output>
      GameSummary: MessageTypeDefinition<_mizerka_v1_GameSummary, _mizerka_v1_GameSummary__Output>
      GetBotRequest: MessageTypeDefinition<_mizerka_v1_GetBotRequest, _mizerka_v1_GetBotRequest__Output>
      GetBotResponse: MessageTypeDefinition<_mizerka_v1_GetBotResponse, _mizerka_v1_GetBotResponse__Output>
      GetMatchRequest: MessageTypeDefinition<_mizerka_v1_GetMatchRequest, _mizerka_v1_GetMatchRequest__Output>
      GetMatchResponse: MessageTypeDefinition<_mizerka_v1_GetMatchResponse, _mizerka_v1_GetMatchResponse__Output>
      ListMatchesRequest: MessageTypeDefinition<_mizerka_v1_ListMatchesRequest, _mizerka_v1_ListMatchesRequest__Output>
      ListMatchesResponse: MessageTypeDefinition<_mizerka_v1_ListMatchesResponse, _mizerka_v1_ListMatchesResponse__Output>
      Match: MessageTypeDefinition<_mizerka_v1_Match, _mizerka_v1_Match__Output>
      MatchSeat: MessageTypeDefinition<_mizerka_v1_MatchSeat, _mizerka_v1_MatchSeat__Output>
      MatchStatus: EnumTypeDefinition
      MisereQuotas: EnumTypeDefinition
      Phase: EnumTypeDefinition
      PlayCard: MessageTypeDefinition<_mizerka_v1_PlayCard, _mizerka_v1_PlayCard__Output>
      PlayerState: MessageTypeDefinition<_mizerka_v1_PlayerState, _mizerka_v1_PlayerState__Output>
      PublishMatchesRequest: MessageTypeDefinition<_mizerka_v1_PublishMatchesRequest, _mizerka_v1_PublishMatchesRequest__Output>
      PublishMatchesResponse: MessageTypeDefinition<_mizerka_v1_PublishMatchesResponse, _mizerka_v1_PublishMatchesResponse__Output>
      RegisterBotRequest: MessageTypeDefinition<_mizerka_v1_RegisterBotRequest, _mizerka_v1_RegisterBotRequest__Output>
      RegisterBotResponse: MessageTypeDefinition<_mizerka_v1_RegisterBotResponse, _mizerka_v1_RegisterBotResponse__Output>
      RevokeMode: EnumTypeDefinition
      Ruleset: MessageTypeDefinition<_mizerka_v1_Ruleset, _mizerka_v1_Ruleset__Output>
      SeatCards: MessageTypeDefinition<_mizerka_v1_SeatCards, _mizerka_v1_SeatCards__Output>
      SeatRecord: MessageTypeDefinition<_mizerka_v1_SeatRecord, _mizerka_v1_SeatRecord__Output>
      SeatView: MessageTypeDefinition<_mizerka_v1_SeatView, _mizerka_v1_SeatView__Output>
      TiebreakMode: EnumTypeDefinition
      Trick: MessageTypeDefinition<_mizerka_v1_Trick, _mizerka_v1_Trick__Output>
      TrickPlay: MessageTypeDefinition<_mizerka_v1_TrickPlay, _mizerka_v1_TrickPlay__Output>
      WaitMatchRequest: MessageTypeDefinition<_mizerka_v1_WaitMatchRequest, _mizerka_v1_WaitMatchRequest__Output>
      WaitMatchResponse: MessageTypeDefinition<_mizerka_v1_WaitMatchResponse, _mizerka_v1_WaitMatchResponse__Output>
    }
  }
}

