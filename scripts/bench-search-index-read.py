#!/usr/bin/env python3
"""How long the first product search after a catalogue change takes (the search index read again) and the next one.

Usage: scripts/bench-search-index-read.py BINARY   (a release build; reads /work/bench-small or SHOP, copied first)

Starts `stockroom serve` on a copy of the shop, creates an admin and a token, then twelve times: creates a product
(which drops the index), times one search (which reads the index again) and a second (which uses it). Prints the
medians of the last ten. Wall-clock times on a shared machine: compare builds in turns, in one run.
"""
import json, os, shutil, socket, subprocess, sys, tempfile, time, http.client
binary=sys.argv[1]
d=tempfile.mkdtemp(); data=os.path.join(d,'data'); os.makedirs(data)
for f in os.listdir(os.environ.get('SHOP', '/work/bench-small')):
    if f.startswith('stockroom.sqlite'): shutil.copy(os.path.join(os.environ.get('SHOP', '/work/bench-small'),f), data)
import sqlite3
c=sqlite3.connect(os.path.join(data,'stockroom.sqlite'))
for t in ['session','apiToken','user']:
    try: c.execute(f'delete from {t}')
    except Exception as e: pass
c.commit(); c.close()
s=socket.socket(); s.bind(('127.0.0.1',0)); port=s.getsockname()[1]; s.close()
p=subprocess.Popen([binary,'serve','--data',data,'--host','127.0.0.1','--port',str(port),'--no-backups'],stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL)
for _ in range(200):
    try: socket.create_connection(('127.0.0.1',port)).close(); break
    except OSError: time.sleep(0.05)
conn=http.client.HTTPConnection('127.0.0.1',port)
def call(m,path,body=None,h={}):
    hh={'Content-Type':'application/json'}; hh.update(h)
    conn.request(m,path,json.dumps(body) if body is not None else None,hh); r=conn.getresponse(); b=r.read(); return r, b
r,b=call('POST','/api/v1/auth/setup',{"username":"bench","password":"bench password","pin":"1234"})
cookie=r.getheader('Set-Cookie').split(';')[0]; csrf=json.loads(b)['csrfToken']
r,b=call('POST','/api/v1/tokens',{"name":"x"},{"Cookie":cookie,"X-CSRF-Token":csrf})
auth={'Authorization':'Bearer '+json.loads(b)['token']}
times=[]
for i in range(12):
    r,b=call('POST','/api/v1/products',{"name":f"Idx probe {i}","salePrice":"1.00"},auth); assert r.status in (200,201), b
    t=time.perf_counter(); r,b=call('GET','/api/v1/products?search=choc&limit=8',None,auth); first=time.perf_counter()-t
    t=time.perf_counter(); r,b=call('GET','/api/v1/products?search=choc&limit=8',None,auth); second=time.perf_counter()-t
    times.append((first*1000,second*1000))
p.terminate(); p.wait(); shutil.rmtree(d)
times=times[2:]
import statistics
print(binary, "first search after a create: median %.1f ms; the next: median %.2f ms" % (statistics.median(t[0] for t in times), statistics.median(t[1] for t in times)))
