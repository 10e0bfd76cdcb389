import {
  handleCommand,
  type CommandContext,
  type CommandOptions,
  type CommandResult,
  type DomainEvent,
  type StreamType,
} from './handleCommand.ts';
import type { EventStore } from './port.ts';

/** How routes, consumers and workers change state: one command against one stream (handleCommand.ts). */
export type Commands = {
  execute<State, Event extends DomainEvent, Command>(
    type: StreamType<State, Event, Command>,
    id: string,
    command: Command,
    context: CommandContext,
    options?: CommandOptions,
  ): Promise<CommandResult<State>>;
};

export function createCommands(eventStore: EventStore): Commands {
  return {
    execute: (type, id, command, context, options) =>
      handleCommand(eventStore, type, id, command, context, options),
  };
}
