'use strict';
/** Every column of the table, in print order. */
module.exports = [
  require('./baseline'),
  require('./golem'),
  require('./golem-zod'),
  require('./golem-decorated'),
  require('./ai-sdk'),
  require('./openai-agents'),
  require('./langchain'),
];
