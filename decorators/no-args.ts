/**
 * The argument type of a tool that takes no arguments but needs its context:
 * `now(_args: NoArgs, ctx: ToolContext<User>)`. Its schema is the empty object; a call with any
 * property is rejected. (A method with no parameters at all needs no marker.)
 */
export class NoArgs {}
