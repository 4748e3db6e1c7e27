@rem Windows entry for prebuildify --node-gyp (prebuildify spawns it through the shell there).
@node "%~dp0cmake-js-as-node-gyp.mjs" %*
