/**
 * Preloaded (`node --require`) into a reference server started with PORT=0: reports the port its
 * HTTP server listens on as `LISTENING <port>` on stderr, so the test learns it without racing.
 */
'use strict';
const net = require('node:net');

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  this.once('listening', () => {
    const address = this.address();
    if (address !== null && typeof address === 'object') {
      process.stderr.write(`LISTENING ${address.port}\n`);
    }
  });
  return listen.apply(this, args);
};
