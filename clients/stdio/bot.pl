#!/usr/bin/env perl
# An example Mizerka bot over the stdio line protocol (docs/stdio-protocol.md).
#
# Perl 5 with core modules only (JSON::PP): no gRPC, nothing of this project. Run it through the
# bridge, which connects to the referee and starts one copy of this program per game played at once:
#
#     mizerka-bot stdio -- perl clients/stdio/bot.pl
#
# How it plays (the same ideas as clients/stdio/bot.py):
# - contract: scores every legal contract against what an average hand would give (high cards for
#   plus contracts, length in the trump suit, low cards for the minus contract), takes the best;
# - major round (manni-major): always passes;
# - exchange: plus contracts swap low side cards, the minus contract swaps high cards; in a pick
#   exchange it takes the talon cards that are better than its worst cards;
# - play: in plus contracts the lowest card that wins the trick so far (else its lowest card); in
#   the minus contract the highest card that still loses (else its highest card);
# - an "error" line with retry true is answered again with a legal answer not sent yet.
#
# With BOT_TEST_BAD_FIRST=1 it sends a card it does not hold at its first card play, to show (and
# test) the error and retry path.
use strict;
use warnings;
use JSON::PP;
use List::Util qw(sum0 max min);

$| = 1;    # one answer line must leave at once: the clock is running
my $json = JSON::PP->new->utf8->canonical;

my $RANKS = '23456789TJQKA';
my %POINTS = (A => 4, K => 3, Q => 2, J => 1);
my @DECK = map { my $s = $_; map { "$_$s" } split //, $RANKS } qw(S H D C);

sub rank { index($RANKS, substr($_[0], 0, 1)) }
sub suit { substr($_[0], 1, 1) }
sub hcp  { $POINTS{ substr($_[0], 0, 1) } // 0 }
sub say_err { print STDERR "bot.pl: @_\n" }

# Sort helpers: cards by rank, low first.
sub by_rank { sort { rank($a) <=> rank($b) } @_ }

my %contracts;          # name -> contract info from the ruleset
my $hand_size = 13;
my $bad_first = ($ENV{BOT_TEST_BAD_FIRST} // '') eq '1';
my $decision;           # the decide line being answered
my @sent;               # our answers to it so far (JSON text, to compare)

sub contract_score {
    my ($option, $hand) = @_;
    my $seen   = @$hand || 1;
    my $scale  = $hand_size / $seen;    # with choose_after = 6 we see only part of the hand
    my $excess = (sum0(map { hcp($_) } @$hand) - $seen * 10 / 13) * $scale;
    my $info   = $contracts{ $option->{contract} } // {};
    if ($info->{minus}) {
        my $low = grep { rank($_) <= 5 } @$hand;    # 2 to 7
        return -$excess / 3 + ($low - $seen * 6 / 13) * $scale * 0.3;
    }
    my $trump = $option->{trump} // $info->{trump};
    return $excess / 3 unless defined $trump;
    my @trumps = grep { suit($_) eq $trump } @$hand;
    return $excess / 4 + (@trumps - $seen / 4) * $scale * 0.7 + sum0(map { hcp($_) } @trumps) * $scale / 8;
}

sub choose_contract {
    my ($d) = @_;
    my $hand = $d->{view}{hand};
    my ($best, $best_score);
    for my $option (@{ $d->{legal} }) {
        my $score = contract_score($option, $hand);
        ($best, $best_score) = ($option, $score) if !defined $best_score || $score > $best_score;
    }
    return $best;
}

sub exchange {
    my ($d) = @_;
    my ($view, $ex) = ($d->{view}, $d->{exchange});
    my ($trump, $minus, $max) = ($view->{trump}, $view->{minus}, $ex->{max});
    return { discard => [] } if $max == 0;
    my $value = sub {    # higher is better to keep
        my ($c) = @_;
        return -rank($c) if $minus;
        return rank($c) + ((defined $trump && suit($c) eq $trump) ? 13 : 0);
    };
    if ($ex->{pick}) {
        my @mine   = sort { $value->($a) <=> $value->($b) } @{ $view->{hand} };
        my @theirs = sort { $value->($b) <=> $value->($a) } @{ $ex->{talon} };
        my (@discard, @take);
        while (@mine && @theirs && @discard < $max && $value->($theirs[0]) > $value->($mine[0])) {
            push @discard, shift @mine;
            push @take,    shift @theirs;
        }
        return { discard => \@discard, take => \@take };
    }
    my @worst = $minus
      ? grep { rank($_) >= 10 } @{ $view->{hand} }    # Q, K, A
      : grep { !(defined $trump && suit($_) eq $trump) && rank($_) <= 4 } @{ $view->{hand} };    # 2 to 6
    @worst = sort { $value->($a) <=> $value->($b) } @worst;
    my $k = min(scalar @worst, $max, 4);
    return { discard => [ @worst[ 0 .. $k - 1 ] ] };
}

sub play {
    my ($d) = @_;
    my $view  = $d->{view};
    my @cards = map { $_->{play} } @{ $d->{legal} };
    # The referee says, card by card, whether it would take the trick as it stands.
    my %takes;
    @takes{@cards} = @{ $d->{takes_trick} };
    my $trump = $view->{trump};
    if ($bad_first) {    # test mode: one card we do not hold, to be refused
        $bad_first = 0;
        my %held = map { $_ => 1 } @{ $view->{hand} };
        my ($bad) = grep { !$held{$_} } @DECK;
        return { play => $bad };
    }
    unless ($view->{winning}) {    # we lead
        return { play => (by_rank(@cards))[ $view->{minus} ? 0 : -1 ] };
    }
    if ($view->{minus}) {
        my @losers = grep { !$takes{$_} } @cards;
        return { play => (by_rank(@losers ? @losers : @cards))[-1] };
    }
    my @winners = grep { $takes{$_} } @cards;
    my $is_trump = sub { (defined $trump && suit($_[0]) eq $trump) ? 1 : 0 };
    my @cheap = sort { $is_trump->($a) <=> $is_trump->($b) || rank($a) <=> rank($b) } (@winners ? @winners : @cards);
    return { play => $cheap[0] };    # side suits before trumps, low first
}

sub decide {
    my ($d) = @_;
    my $kind = $d->{kind};
    return choose_contract($d) if $kind eq 'contract';
    return exchange($d)        if $kind eq 'exchange';
    return play($d)            if $kind eq 'play';
    return { major => undef };    # major round: pass (null)
}

# Another answer after a refusal: think again, else a legal answer not sent yet.
sub again {
    my ($d) = @_;
    my %was = map { $_ => 1 } @sent;
    for my $body (decide($d), @{ $d->{legal} }) {
        return $body unless $was{ $json->encode($body) };
    }
    return $d->{default};    # the referee's default
}

sub answer {
    my ($body) = @_;
    push @sent, $json->encode($body);
    print $json->encode({ %$body, turn => 0 + $decision->{turn} }), "\n";
}

while (my $line = <STDIN>) {
    next unless $line =~ /\S/;
    my $msg  = $json->decode($line);
    my $type = $msg->{type} // '';
    if ($type eq 'hello') {
        say_err("unknown protocol version $msg->{protocol}; trying anyway") if $msg->{protocol} != 1;
    }
    elsif ($type eq 'game_start') {
        %contracts = map { $_->{name} => $_ } @{ $msg->{ruleset}{contracts} };
        $hand_size = $msg->{ruleset}{hand_size};
    }
    elsif ($type eq 'decide') {
        ($decision, @sent) = ($msg);
        answer(decide($msg));
    }
    elsif ($type eq 'error') {
        say_err("turn " . ($msg->{turn} // '-') . " refused: $msg->{code}: $msg->{message}");
        answer(again($decision))
          if $msg->{retry} && $decision && defined $msg->{turn} && $msg->{turn} == $decision->{turn};
    }
    elsif ($type eq 'game_end') {
        say_err("game over: rank $msg->{rank}, totals @{ $msg->{totals} }");
        undef $decision;
    }
    # "event" lines and any line type added later are ignored
}
