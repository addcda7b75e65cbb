# 持ち時間: 期限、リマインド、休暇、ダイジェスト、サーバー設定（src/service/clock.rs）。

## サーバー設定

server-show = サーバー設定: 既定の持ち時間は一手{ $days }日、対局は既定で{ $rated }、{ $games }、公開の告知は { $language }。
server-saved = 保存しました: 既定の持ち時間は一手{ $days }日、既定で{ $rated }、{ $games }、公開の告知は { $language }。
server-rated = レーティング対局
server-casual = 非レーティング対局
server-games-here = 対局は挑戦したチャンネルで行います
server-games-channel = 対局はチャンネル { $channel } で行います
server-language-chosen = { $lang }
server-language-discord = { $lang }（サーバーの Discord の言語）
server-not-in-server = サーバー設定はサーバーの中で変更します
server-managers-only = サーバー設定を変更できるのはサーバーの管理者だけです
