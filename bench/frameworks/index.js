'use strict';
/** Every column of the table, in print order (the hand-written loop first: the floor). */
module.exports = [
  require('./loop'),
  require('./golem-zod'),
  require('./golem-decorated'),
  require('./golem'),
  require('./ai-sdk'),
  require('./openai-agents'),
  require('./langchain'),
];
