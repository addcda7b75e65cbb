# 挑戦、指し手、投了、入玉宣言、提案（src/service/play.rs）。

## 挑戦

play-handicap-and-setup = 駒落ちと初期配置は同時に指定できません
play-no-handicaps = { $game }には駒落ちがありません
play-unknown-handicap = { $game }に「{ $handicap }」という駒落ちはありません。次から選んでください: { $choices }
play-no-setups = { $game }には名前のある初期配置がありません
play-unknown-setup = { $game }に「{ $setup }」という初期配置はありません。次から選んでください: { $choices }
play-unknown-game = 「{ $game }」という将棋の種類はありません。次から選んでください: { $choices }
play-level-computer = `level` は{ $name }との対局で使います。{ $name }に挑戦するときに指定してください
play-level-no-computer = `level` はコンピューターとの対局で使います
play-challenge-yourself = 自分自身には挑戦できません。友達に挑戦するか、誰でも受けられる挑戦（open）をしてください
play-handicap-casual = 駒落ちの対局は非レーティング対局です。`rated` か駒落ちを外してください
play-notice-challenge = { $name }さんから{ $game }の挑戦が届きました（挑戦 #{ $challenge }）。受けるなら `accept { $challenge }`、断るなら `decline { $challenge }`
play-anyone = 誰でも（オープン挑戦）
play-challenge-side = （挑戦者が{ $side }）
play-challenge-handicap = 、{ $handicap }（上手の後手から指します）
play-challenge-setup = 、初期配置 { $setup }
play-rated = レーティング対局
play-casual = 非レーティング対局
play-challenge = 挑戦 #{ $id }: { $name }さん → { $whom }、{ $game }{ $side }{ $extra }、{ $clock }、{ $kind }。挑戦は{ $open }日間有効です。受けるなら `accept { $id }`。
play-button-accept = 受ける
play-button-decline = 断る
play-too-many-challenges = 未回答の挑戦が{ $count }件あり、一人が出せる上限です。`cancel { $first }` で取り下げるか（あなたの挑戦: { $ids }）、返事を待ってください
play-too-many-to-one = { $name }さんへの未回答の挑戦がすでに{ $count }件あります（{ $ids }）。返事を待つか、`cancel { $first }` で取り下げてください
play-daily-cap = 過去24時間に{ $name }さんへ{ $count }回挑戦しており、上限です。{ $time }から再び挑戦できます
play-no-picture = {"\u000A"}（盤面の画像を描けませんでしたが、変更は有効です。）
play-no-challenge = 挑戦 #{ $id } はありません
play-challenge-expired = 期限切れ
play-challenge-accepted = 受諾済み
play-challenge-declined = 辞退済み
play-challenge-cancelled = 取り下げ済み
play-challenge-closed = 挑戦 #{ $id } はもう受け付けていません（{ $state }）
play-no-open-challenge = 未回答の挑戦はありません
play-nobody-challenged = あなたへの挑戦はありません（誰でも受けられる挑戦は番号を指定します: `accept 12`）
play-several-challenges = 未回答の挑戦が複数あります（{ $ids }）。どれか指定してください。例: `accept { $first }`
play-challenge-own = 挑戦 #{ $id } はあなた自身の挑戦です。取り下げるなら `cancel { $id }`
play-challenge-not-yours = 挑戦 #{ $id } は{ $name }さんへの挑戦で、あなた宛てではありません
play-notice-accepted = { $name }さんが挑戦を受けました。対局 #{ $game } が始まります
play-notice-your-move = 対局 #{ $game } はあなたの手番です
play-challenge-taken = 挑戦 #{ $id } はたった今、他の人が受けました
play-game-begins = 対局 #{ $id } 開始: { $first }（{ $first_side }）対 { $second }（{ $second_side }）、{ $clock }。{ $mover }さんの手番です。
play-challenge-not-addressed = 挑戦 #{ $id } はあなた宛てではありません。そのままにしておいてください
play-notice-declined = { $name }さんが挑戦 #{ $id } を断りました
play-declined = { $name }さんが挑戦 #{ $id } を断りました。
play-not-yours-to-cancel = 挑戦 #{ $id } はあなたの挑戦ではないので取り下げられません
play-cancelled = 挑戦 #{ $id } を取り下げました。

## 指し手

play-game-over = 対局 #{ $id } は終了しています
play-not-your-turn = 対局 #{ $id } はあなたの手番ではありません。{ $name }さんの手番です
play-button-stale = そのボタンが表示されてから局面が変わりました。盤面を確認してください
# 読み手の言葉にすでになっている拒否（エンジンの理由、src/i18n/refusal.rs）。
play-said = { $text }
play-ply = { $ply }手目
play-plays = 対局 #{ $id }: { $number } { $name }さんが{ $move }と指しました。
play-check = 王手！
play-to-move = { $name }さん（{ $side }）の手番です。
play-to-move-by = { $name }さん（{ $side }）の手番です。期限は{ $time }。
play-notice-over = 対局 #{ $id } は終了しました: { $outcome }
play-notice-moved = 対局 #{ $id } はあなたの手番です（{ $name }さんの指し手: { $move }）
play-outcome = { $result }。
play-player-side = { $name }（{ $side }）
play-notice-time-ran-out = 対局 #{ $id } は終了しました: { $name }さんは{ $time }に時間切れになりました。{ $outcome }
play-time-ran-out = 対局 #{ $id }: { $time }に持ち時間が切れました。時間切れ負けです
play-their-time-ran-out = 対局 #{ $id }: { $name }さんは{ $time }に時間切れになりました。時間切れ負けです。{ $outcome }

## 入玉宣言と投了

play-declare-not-your-turn = 対局 #{ $id } はあなたの手番ではありません。入玉宣言は自分の手番にだけできます
play-declare-refused = 対局 #{ $id }: 入玉宣言できません: { $why }
play-notice-declared = { $name }さんが対局 #{ $id } で入玉宣言しました。あなたの負けです
play-declares = 対局 #{ $id }: { $name }さんが入玉宣言しました（敵陣の駒{ $pieces }枚、{ $points }点）。{ $outcome }
play-notice-resigned = { $name }さんが対局 #{ $id } を投了しました。あなたの勝ちです
play-resigns = 対局 #{ $id }: { $name }さんが投了しました。{ $outcome }

## 提案: 引き分け、待った、持将棋

play-what-draw = 引き分けの提案
play-what-takeback = 待ったの申し出
play-what-impasse = 持将棋の提案
play-verb-draw = 引き分けを提案しました
play-verb-takeback = 待った（直前の自分の手を戻すこと）を申し出ました
play-verb-impasse = 持将棋を提案しました
play-already-offered = 対局 #{ $id } ではすでに{ $what }をしています。{ $name }さんの返事を待っています
play-notice-offer = { $name }さんが対局 #{ $id } で{ $verb }
play-offered = 対局 #{ $id }: { $name }さんが{ $verb }{ $detail }。{ $opponent }さん: 受けるなら `{ $word } { $id } accept`、断るなら `{ $word } { $id } decline`。
play-detail-takeback = （{ $count }手）
play-detail-impasse = （点数: { $black }{ $black_points }点、{ $white }{ $white_points }点。{ $needed }点必要）
play-no-offer-to-decline = 対局 #{ $id } で相手からの{ $what }はないので、断るものがありません
play-notice-offer-declined = { $name }さんが対局 #{ $id } の{ $what }を断りました
play-offer-declined = 対局 #{ $id }: { $name }さんが{ $what }を断りました。
play-no-offer-to-accept = 対局 #{ $id } で相手からの{ $what }はありません（指し手があると提案は取り消されます）
play-no-takeback = 戻せる自分の指し手がまだありません
play-no-impasse-rule = { $game }には持将棋のルールがありません
play-impasse-side-to-move = 持将棋を提案できるのは手番の側だけです
play-impasse-kings = 持将棋には両方の玉が敵陣に入っている必要があります
play-no-impasse-here = この対局には持将棋のルールがありません
play-notice-offer-accepted = { $name }さんが受けました。対局 #{ $id } は終了です。{ $outcome }
play-accepts = 対局 #{ $id }: { $name }さんが受けました。{ $outcome }
play-notice-takeback-accepted = { $name }さんが対局 #{ $id } の待ったを受けました
play-takeback-accepted = 対局 #{ $id }: { $name }さんが待ったを受け、{ $count }手戻しました。{ $mover }さんの手番です。

## 盤面の下のボタン

play-button-moves = 合法手
play-button-draw = 引き分けを提案
play-button-resign = 投了

## Conditional moves
play-conditional-mark = （予約手）
play-answered = 続けて{ $name }さんが予約手で{ $number } { $move }と指しました。
conditional-your-turn = 対局 #{ $id } はあなたの手番です。指してください。予約手は相手の手番に登録します。
conditional-bad-move = 予約の{ $n }手目（{ $text }）: { $why }
conditional-after-end = 予約の{ $n }手目（{ $text }）は終局後の手です。予約はその前の手までにしてください。
conditional-conflict = 対局 #{ $id } の予約 { $line } がその手に別の手で応じています。先に予約を消してください（`conditional clear { $id }`）。
conditional-too-many = 一局に登録できる予約は{ $max }本までです。
conditional-too-long = 一本の予約は{ $max }手までです。
conditional-saved = 対局 #{ $id } に予約を登録しました: { $line }。相手の指し手を待つ予約は{ $count }本です（あなたにだけ表示）。
conditional-none = 対局 #{ $id } に予約はありません。
conditional-list-head = 対局 #{ $id } のあなたの予約:
conditional-list-line = { $n }. { $line }
conditional-cleared = 対局 #{ $id } の予約を{ $count }本消しました。
conditional-stopped = 対局 #{ $id } の予約は { $move } の前で止まりました: { $why } あなたの手番です。
conditional-why-illegal = その手はこの局面では指せません。
conditional-why-declare = 入玉宣言ができます。
conditional-why-end = 対局が終わってしまいます（{ $outcome }）。
