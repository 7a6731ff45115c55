# A stateless stdio bot in jq: one jq process reads every line for as long as the bridge runs it.
#   mizerka-bot stdio --no-events -- jq --unbuffered -c -f clients/stdio/bot.jq
# It keeps nothing between lines: each decide line says all it needs, including the facts of the
# contracts it may choose ("contracts": trump, minus, ...). Other lines produce no output.

def rank: . as $r | "23456789TJQKA" | index($r);

select(.type == "decide")
| . as $d
| if .kind == "exchange" then {discard: []}
  elif .kind == "contract" then
    # The plus contract whose trump is my longest suit, else the first legal one.
    ($d.view.hand | map(.[1:2]) | group_by(.) | max_by(length) | .[0]) as $long
    | first($d.legal[] | select(($d.contracts[.contract].trump // .trump) == $long
                                and ($d.contracts[.contract].minus | not)))
      // $d.legal[0]
  elif .kind == "play" then
    # The lowest legal card.
    $d.legal | min_by(.play[0:1] | rank)
  else
    # A major contest: pass when passing is legal.
    first($d.legal[] | select(.major == null)) // $d.legal[0]
  end
| . + {turn: $d.turn}
