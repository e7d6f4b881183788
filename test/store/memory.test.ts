import { MemoryEventLog } from '../../src/store/memory/event-log.js'
import { MemoryTaskStore } from '../../src/store/memory/task-store.js'
import { storeContract } from './contract.js'

storeContract('memory', async () => {
  const events = new MemoryEventLog()
  return { tasks: new MemoryTaskStore(events), events, cleanup: async () => {} }
})
