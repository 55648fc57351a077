import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '/work/wt-15/src/generated/prisma/client.ts';
import { startPrivateCluster } from '/work/wt-15/te../support/private-cluster.ts';
import { migrate, readMigrations } from '/work/wt-15/src/db/migrator.ts';
import { openDatabase } from '/work/wt-15/src/db/database.ts';
const c = await startPrivateCluster();
console.log(c.url);
const db = await openDatabase({ databaseUrl: c.url });
await db.migrate();
const show = (label: string, e: any) => { const chain=[]; let x=e; while(x){chain.push({name:x.name, code:x.code, ctor:x.constructor?.name, msg:String(x.message).slice(0,200), kind: x.kind, meta: x.meta, cause: x.cause?.constructor?.name}); x=x.cause;} console.log(label, JSON.stringify(chain,null,1)); };
await db.prisma.user.count();
await c.stop();
try { await db.prisma.user.count(); } catch (e) { show('down', e); }
try { await db.prisma.$transaction(async tx => { await tx.user.count(); }); } catch (e) { show('down-tx', e); }
try { await db.ping(); } catch (e) { show('ping', e); }
await c.start();
try { await db.prisma.user.count(); console.log('back ok'); } catch (e) { show('back', e); }
// kill during a transaction
const p = db.prisma.$transaction(async tx => { await tx.$queryRaw`select pg_sleep(3)`; }).catch(e => show('midtx', e));
await new Promise(r=>setTimeout(r,500));
await c.stop();
await p;
await c.start();
try { await db.prisma.$queryRawUnsafe('select pg_sleep(2)'); } catch(e) { show('x', e); }
await db.close();
await c.destroy();
